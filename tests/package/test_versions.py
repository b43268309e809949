"""Versions from the repository, as a maintainer and a user meet them: a clone of this checkout's HEAD builds a
wheel named ``social_api_toolkit-VERSION-…``; two commits build two ordered versions, both above the last release
CHANGELOG.md records, each naming its commit; installing the later wheel over the earlier one upgrades it (pip
takes a development version when asked, ``--pre``) and ``toolkit --version`` says so; the same commit builds the same version in a clone without its tags, and a shallow
clone (one commit) still builds a development version above the last release (the release itself where its tag
is there).

Builds from a clone of HEAD: what is committed, not uncommitted changes of the checkout."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from packaging.version import Version

from tests.installed import REPO

pytestmark = [pytest.mark.package, pytest.mark.timeout(300)]

if shutil.which("git") is None or not (REPO / ".git").exists():
    pytest.skip("needs git and a checkout (the versions come from its history)", allow_module_level=True)

ENV = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PYTEST", "TOOLKIT_",
                                                                 "SETUPTOOLS_SCM"))}
ENV.update(GIT_AUTHOR_NAME="tests", GIT_AUTHOR_EMAIL="tests@example.test", GIT_COMMITTER_NAME="tests",
           GIT_COMMITTER_EMAIL="tests@example.test")


def _run(*args, cwd: Path, timeout: float = 600) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=ENV, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{' '.join(map(str, args))}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def last_release() -> Version:
    found = re.search(r"^## (\d+\.\d+\.\d+)\b", (REPO / "CHANGELOG.md").read_text("utf-8"), flags=re.M)
    return Version(found.group(1) if found else "0.0.0")


def _wheel(src: Path, out: Path) -> Path:
    """The wheel of ``src``, built with this environment's setuptools and setuptools-scm (the ``test`` extra has
    them: no isolated environment to make per build)."""
    _run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", out, src, cwd=src)
    (wheel,) = out.glob("*.whl")
    return wheel


def _metadata_version(src: Path) -> Version:
    """The version the build backend gives ``src`` (its wheel metadata, without building the wheel)."""
    code = "import build.util, sys; print(build.util.project_wheel_metadata(sys.argv[1], isolated=False)['Version'])"
    return Version(_run(sys.executable, "-c", code, src, cwd=src).strip().splitlines()[-1])


def _version(wheel: Path) -> Version:
    name, version, *_ = wheel.name.split("-")
    assert name == "social_api_toolkit", wheel.name
    return Version(version)


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("versions") / "clone"
    _run("git", "clone", "-q", REPO, where, cwd=where.parent)
    return where


def test_two_commits_build_two_ordered_versions_and_the_later_upgrades_the_earlier(clone, tmp_path):
    first = _wheel(clone, tmp_path / "first")
    head = _run("git", "rev-parse", "--short=7", "HEAD", cwd=clone).strip()
    _run("git", "commit", "-q", "--allow-empty", "-m", "a later commit", cwd=clone)
    later = _run("git", "rev-parse", "--short=7", "HEAD", cwd=clone).strip()
    second = _wheel(clone, tmp_path / "second")
    v1, v2 = _version(first), _version(second)
    print(f"two commits: {first.name} → {second.name}")
    assert last_release() <= v1 < v2, (v1, v2)
    assert v2.is_devrelease and Version(v2.base_version) > last_release(), v2
    assert (v1.local or "").startswith(f"g{head}") or v1 == last_release(), v1   # a release carries no commit
    assert (v2.local or "").startswith(f"g{later}"), v2

    # the user's side: the earlier wheel installed, then the later one found among both upgrades it
    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    pip = [env / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps"]
    _run(*pip, first, cwd=tmp_path)
    assert _run(env / "bin" / "toolkit", "--version", cwd=tmp_path).strip() == f"toolkit {v1}"
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    for wheel in (first, second):
        shutil.copy(wheel, wheels)
    # a build between releases is a development version, which pip takes only when asked (--pre), as for any
    # project; among both wheels it then picks the later one
    _run(*pip, "--upgrade", "--pre", "--no-index", "--find-links", wheels, "social-api-toolkit", cwd=tmp_path)
    assert _run(env / "bin" / "toolkit", "--version", cwd=tmp_path).strip() == f"toolkit {v2}"
    shown = _run(env / "bin" / "python", "-m", "pip", "show", "social-api-toolkit", cwd=tmp_path)
    assert f"Version: {v2}" in shown, shown


def test_a_clone_without_tags_builds_the_same_version_and_a_shallow_one_still_builds(clone, tmp_path):
    tagged = _metadata_version(clone)
    tags = _run("git", "tag", "--list", cwd=clone).split()
    if tags:
        _run("git", "tag", "-d", *tags, cwd=clone)
    untagged = _metadata_version(clone)
    print(f"HEAD with tags {tags}: {tagged}; without: {untagged}")
    assert untagged == tagged

    # the release's own commit (the one that wrote its heading into the changelog), without its tag: the release
    if last_release() > Version("0.0.0"):
        release = _run("git", "log", "-1", "--format=%H", "-S", f"## {last_release()} ", "--", "CHANGELOG.md",
                       cwd=clone).strip()
        _run("git", "checkout", "-q", release, cwd=clone)
        try:
            assert str(_metadata_version(clone)) == str(last_release())
        finally:
            _run("git", "checkout", "-q", "-", cwd=clone)

    # a clone of one commit (a later one than the release, as CI's shallow clones are): its oldest commit seems to
    # write the whole changelog, the last release's heading included, yet only a tag makes a release
    _run("git", "commit", "-q", "--allow-empty", "-m", "a commit after the release", cwd=clone)
    shallow = tmp_path / "shallow"
    _run("git", "clone", "-q", "--depth", "1", clone.as_uri(), shallow, cwd=tmp_path)
    version = _metadata_version(shallow)
    print(f"a shallow clone of a later commit: {version}")
    assert version.is_devrelease and Version(version.base_version) > last_release(), version


def test_the_wheel_built_from_the_sdist_keeps_the_sdists_version(tmp_path):
    """``python -m build`` makes the sdist, then the wheel from the sdist's folder, where there is no git: the wheel
    keeps the version the sdist was given (its PKG-INFO), on a release's own commit without its tag (where the git
    facts setuptools-scm stores in the sdist would make a development version) and on a commit after the tag
    (where they would number it by the distance from the tag, not by the commit count). The release is made in a
    clone of HEAD: a commit that writes the next patch's heading into CHANGELOG.md."""
    src = tmp_path / "clone"
    _run("git", "clone", "-q", REPO, src, cwd=tmp_path)
    tags = _run("git", "tag", "--list", cwd=src).split()
    if tags:
        _run("git", "tag", "-d", *tags, cwd=src)
    old = last_release()
    new = f"{old.major}.{old.minor}.{old.micro + 1}"
    changelog = src / "CHANGELOG.md"
    text = changelog.read_text("utf-8")
    changelog.write_text(text.replace("\n## ", f"\n## {new} — a release made by the test\n\n- nothing\n\n## ", 1),
                         "utf-8")
    _run("git", "commit", "-q", "-am", f"Release {new}", cwd=src)
    for name, want in (("the release's commit without its tag", new), ("a commit after the release's tag", None)):
        if want is None:
            _run("git", "tag", f"v{new}", "HEAD", cwd=src)
            _run("git", "commit", "-q", "--allow-empty", "-m", "a commit after the release", cwd=src)
        out = tmp_path / ("release" if want else "after")
        _run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, src, cwd=src)
        (sdist,) = out.glob("*.tar.gz")
        (wheel,) = out.glob("*.whl")
        made = sdist.name.removesuffix(".tar.gz").split("-", 1)[1]
        print(f"{name}: {sdist.name}, {wheel.name}")
        assert Version(made) == _version(wheel), (name, sdist.name, wheel.name)
        if want is not None:
            assert made == want, (name, made)
        else:
            assert _version(wheel).is_devrelease and Version(_version(wheel).base_version) > Version(new), wheel.name
