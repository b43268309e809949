"""The shipped data's sources, terms and attributions ship with it (``toolkit/data/NOTICE.md``, readable with
``toolkit.data.notice()``) and agree with the repository's full account (``datasets/README.md``); the sandbox's
maps carry the attributions the data requires."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import toolkit.data
from toolkit.mapassets import SANDBOX_ATTRIBUTION

ROOT = Path(__file__).resolve().parents[1]
ACCOUNT = ROOT / "datasets" / "README.md"


def _flat(text: str) -> str:
    return " ".join(text.split())


def required_attributions() -> list[str]:
    """The attributions ``datasets/README.md`` quotes (``**Attribution required:** "…"``, ``**Attribution:** "…"``)."""
    return [_flat(m) for m in re.findall(r'\*\*Attribution(?: required)?:\*\*\s+"([^"]+)"', ACCOUNT.read_text("utf-8"))]


def test_the_notice_is_the_packaged_file_whatever_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv(toolkit.data.ENV, str(tmp_path))
    path = toolkit.data.notice_path()
    assert path == toolkit.data.packaged_root() / "NOTICE.md" and path.is_file()
    assert toolkit.data.notice() == path.read_text("utf-8")


@pytest.mark.skipif(not ACCOUNT.is_file(), reason="datasets/README.md is the repository's (not in a wheel)")
def test_every_attribution_the_data_requires_is_in_the_notice_and_on_the_maps():
    wanted = required_attributions()
    assert len(wanted) >= 2, wanted
    notice = _flat(toolkit.data.notice())
    assert [a for a in wanted if a not in notice] == []
    assert [a for a in wanted if a not in SANDBOX_ATTRIBUTION] == []
    assert "toolkit.data.notice()" in SANDBOX_ATTRIBUTION


def test_the_notice_covers_every_shipped_data_folder_and_file():
    notice = toolkit.data.notice()
    shipped = sorted(p for p in toolkit.data.packaged_root().rglob("*")
                     if p.is_file() and p.suffix not in (".py", ".pyc") and p.name != "NOTICE.md")
    named = [p.relative_to(toolkit.data.packaged_root()).as_posix() for p in shipped]
    unnamed = [n for n in named if n not in notice and f"`{n.split('/')[0]}/`" not in notice]
    assert not unnamed, unnamed


def test_no_page_of_the_package_sends_a_reader_to_a_file_it_lacks():
    """The walkthroughs (their text and their stored maps' attributions) point to ``toolkit.data.notice()`` for
    the terms, not to the repository's ``datasets/README.md`` alone (a wheel does not carry it). The stored maps
    change when the walkthroughs are executed again."""
    offenders = []
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for line in nb.read_text("utf-8").splitlines():
            if "datasets/README.md" in line and "toolkit.data.notice()" not in line:
                offenders.append(f"{nb.name}: {line.strip()[:120]}")
    assert not offenders, offenders
