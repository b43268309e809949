"""Re-fetch the pinned Leaflet files from the npm registry and verify them (see README.md in this folder).

    python toolkit/mapassets/fetch_assets.py --check    # verify the committed files against the registry
    python toolkit/mapassets/fetch_assets.py            # (re)write them

Needs ``npm`` (only ``npm pack`` is used: it downloads the tarball, nothing is installed).
"""
from __future__ import annotations

import base64
import hashlib
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGES = {
    "leaflet@1.9.4": ("sha512-nxS1ynzJOmOlHp+iL3FyWqK89GtNL8U8rvlMOsQdTTssxZwCXh8N2NB3GDQOL+YR3XnWyZAxwQixURb+FA74PA==",
                      {"package/dist/leaflet.js": "leaflet.js", "package/dist/leaflet.css": "leaflet.css",
                       "package/LICENSE": "LICENSE.leaflet",
                       "package/dist/images/marker-icon.png": "marker-icon.png",
                       "package/dist/images/marker-icon-2x.png": "marker-icon-2x.png",
                       "package/dist/images/marker-shadow.png": "marker-shadow.png"}),
    "leaflet.markercluster@1.5.3": (
        "sha512-vPTw/Bndq7eQHjLBVlWpnGeLa3t+3zGiuM7fJwCkiMFq+nmRuG3RI3f7f4N4TDX7T4NpbAXpR2+NTRSEGfCSeA==",
        {"package/dist/leaflet.markercluster.js": "leaflet.markercluster.js",
         "package/dist/MarkerCluster.css": "MarkerCluster.css",
         "package/dist/MarkerCluster.Default.css": "MarkerCluster.Default.css",
         "package/MIT-LICENCE.txt": "LICENSE.markercluster"}),
}


def sums() -> dict[str, str]:
    lines = (HERE / "SHA256SUMS").read_text().split("\n")
    return {name: digest for digest, name in (line.split() for line in lines if line.strip())}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    expected = sums()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for spec, (integrity, files) in PACKAGES.items():
            name = subprocess.run(["npm", "pack", spec, "--silent"], cwd=tmp, check=True, capture_output=True,
                                  text=True).stdout.split()[-1]
            blob = (Path(tmp) / name).read_bytes()
            got = "sha512-" + base64.b64encode(hashlib.sha512(blob).digest()).decode()
            if got != integrity:
                print(f"{spec}: integrity mismatch {got}")
                bad += 1
                continue
            with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
                for member, target in files.items():
                    extracted = tar.extractfile(member)
                    if extracted is None:
                        raise ValueError(f"{spec}: {member} is not a file in the package")
                    data = extracted.read()
                    digest = hashlib.sha256(data).hexdigest()
                    if check:
                        here = hashlib.sha256((HERE / target).read_bytes()).hexdigest()
                        same = expected.get(target) == digest == here
                        print(f"{target}: {'ok' if same else 'DIFFERS'}")
                        bad += not same
                    else:
                        (HERE / target).write_bytes(data)
                        expected[target] = digest
    if not check:
        (HERE / "SHA256SUMS").write_text("".join(f"{d}  {n}\n" for n, d in sorted(expected.items())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
