"""Derive the list of endpoints the spec documents (tests/data/spec_endpoints.json) from the three spec
documents, plus the endpoints the spec only names (their paths chosen by the issues and the sandbox).

    python tests/data/extract_spec_endpoints.py ../shared/spec
"""
import json
import re
import sys
from pathlib import Path

PATTERN = re.compile(r"\b(GET|POST|DELETE|PUT)((?: or (?:GET|POST))?) `?\{(auth|api|local|navi|status)_url\}(/[^\s`*|)]+)")

# Named by the spec without a path or shape; paths as the issues fix them.
NAMED_ONLY = [
    ("GET", "api", "/v2/user/me", "identity.md §4.14 (retrieve user information)"),
    ("POST", "api", "/v1/user/unlink", "identity.md §4.14 (unlink)"),
    ("GET", "api", "/v1/user/access_token_info", "identity.md §4.14 (access token information)"),
    ("POST", "api", "/v1/user/update_profile", "identity.md §4.14 (store user property)"),
    ("GET", "api", "/v1/user/ids", "identity.md §4.14 (list users)"),
    ("GET", "api", "/v1/api/story/linkinfo", "social.md §4.1 (scrape step, not shown)"),
    ("GET", "navi", "/v1/future/directions", "location.md §4.11"),
]


HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? (.+)$")


def _title(text: str) -> str:
    """A heading's words without the method and path it may start with: ``GET {local_url}/x (no auth)`` → ``x``."""
    text = re.sub(r"^(GET|POST|DELETE|PUT)( or (GET|POST))? `?\{\w+_url\}", "", text).strip("` ")
    return text


def extract(spec_dir: Path) -> list[dict]:
    found = {}
    for doc in ("identity.md", "social.md", "location.md"):
        section = ("", "")
        for line in (spec_dir / doc).read_text("utf-8").splitlines():
            heading = HEADING.match(line)
            if heading:
                section = (heading.group(1), _title(heading.group(2)))
                continue
            for method, alt, host, path in PATTERN.findall(line):
                path = path.rstrip(".,:;")
                methods = [method] + ([alt.split()[-1]] if alt else [])
                for m in methods:
                    found.setdefault((m, host, path), (doc, *section))
        # endpoints named in a heading itself (``### 4.1 GET {local_url}/...``)
        for line in (spec_dir / doc).read_text("utf-8").splitlines():
            heading = HEADING.match(line)
            if heading:
                for method, alt, host, path in PATTERN.findall(heading.group(2)):
                    path = path.rstrip(".,:;")
                    for m in [method] + ([alt.split()[-1]] if alt else []):
                        found.setdefault((m, host, path), (doc, heading.group(1), _title(heading.group(2))))
    rows = [{"method": m, "host": h, "path": p, "source": src, "section": sec, "title": title}
            for (m, h, p), (src, sec, title) in sorted(found.items())]
    for m, h, p, src in NAMED_ONLY:
        if (m, h, p) not in found:
            doc, sec = re.match(r"(\w+\.md) §(\d+(?:\.\d+)?)", src).groups()
            rows.append({"method": m, "host": h, "path": p, "source": doc, "section": sec,
                         "title": src.split("(", 1)[1].rstrip(")") if "(" in src else ""})
    return rows


if __name__ == "__main__":
    spec = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[3] / "shared" / "spec")
    rows = extract(spec)
    out = Path(__file__).with_name("spec_endpoints.json")
    out.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print(f"{len(rows)} endpoints -> {out.name}")
