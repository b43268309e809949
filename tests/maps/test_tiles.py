"""The sandbox's raster tiles: PNG 256×256 of land, sea and roads; spec-shaped errors; the cache; data read
generically from whatever datasets folder the sandbox has."""
from __future__ import annotations

import io
import json
from pathlib import Path
import math

import httpx
import pytest
from PIL import Image

from toolkit.sandbox.tiles.render import LAND, SEA, TileRenderer
import toolkit.data


def tile_of(lon, lat, z):
    n = 1 << z
    return z, int((lon + 180) / 360 * n), int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)


SEOMYEON = tile_of(129.059, 35.157, 14)
OPEN_SEA = tile_of(128.95, 34.80, 12)        # south of the city: nothing but sea


def get(server, z, x, y):
    return httpx.get(f"{server.base_url}/sandbox/tiles/{z}/{x}/{y}.png")


def colours(png: bytes) -> set:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return {c for _, c in img.getcolors(256 * 256)}


def test_a_tile_is_a_256_png_of_land_and_roads(sandbox_server):
    r = get(sandbox_server, *SEOMYEON)
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    img = Image.open(io.BytesIO(r.content))
    assert img.format == "PNG" and img.size == (256, 256)
    seen = colours(r.content)
    assert LAND in seen and (255, 255, 255) in seen        # land, and white (main/local) roads over it
    assert len(seen) > 50                                   # lines, labels, antialiasing: not a flat fill


def test_a_tile_of_open_sea_is_sea(sandbox_server):
    r = get(sandbox_server, *OPEN_SEA)
    assert r.status_code == 200
    assert colours(r.content) == {SEA}


@pytest.mark.parametrize("path, word", [("19/0/0", "z"), ("-1/0/0", "z"), ("13/8192/0", "x"), ("13/0/8192", "y"),
                                        ("13/a/0", "x"), ("1.5/0/0", "z")])
def test_out_of_range_or_malformed_tiles_answer_the_spec_error(sandbox_server, path, word):
    r = httpx.get(f"{sandbox_server.base_url}/sandbox/tiles/{path}.png")
    assert r.status_code == 400
    body = r.json()
    assert set(body) == {"msg", "code"} and body["code"] == -2 and body["msg"].startswith(word)


def test_tiles_are_cached(sandbox_server):
    rend = sandbox_server.sandbox.model("tiles").renderer
    z, x, y = tile_of(129.08, 35.18, 15)
    misses, hits = rend.misses, rend.hits
    first = get(sandbox_server, z, x, y).content
    second = get(sandbox_server, z, x, y).content
    assert first == second
    assert rend.misses == misses + 1 and rend.hits == hits + 1


def test_the_renderer_reads_whatever_districts_the_datasets_hold(tmp_path):
    """Datasets with only 해운대구 (its dongs and the roads near it): its name is a label, another district's is
    not, and a tile over it has roads."""
    data = toolkit.data.root()
    src = json.loads((data / "local" / "regions_b.geojson").read_text("utf-8"))
    keep = [f for f in src["features"] if f["properties"]["name"] == "해운대구"
            or (f["properties"]["level"] == "emd" and f["properties"]["region_2depth_name"] == "해운대구")]
    assert keep
    (tmp_path / "local").mkdir()
    (tmp_path / "local" / "regions_b.geojson").write_text(json.dumps({"type": "FeatureCollection",
                                                                      "features": keep}), encoding="utf-8")
    (tmp_path / "navi").mkdir()
    (tmp_path / "navi" / "roads.json.gz").write_bytes((data / "navi" / "roads.json.gz").read_bytes())
    rend = TileRenderer(tmp_path)
    assert [name for *_, name, _ in rend.labels["sigungu"]] == ["해운대구"]
    assert len(rend.labels["emd"]) == len(keep) - 1
    assert rend.land.rings                                   # no sido polygon: the district is the land
    png = rend.tile(*tile_of(129.16, 35.163, 13))
    assert LAND in colours(png)


def test_made_up_links_are_thin_grey_dashes_not_arterials():
    """The graph's made-up links (a name ending in '(가상)', straight lines between two nodes) drew as arterials: at
    zoom 14 around 서면 straight orange lines crossed blocks. Now thin grey dashes: along the middle of a link at zoom
    16 the pixels alternate between the dash colour and the map under it, and none is an arterial's fill."""
    import gzip

    from toolkit.sandbox.tiles import render

    rend = TileRenderer(toolkit.data.root())
    data = json.loads(gzip.decompress((toolkit.data.root() / "navi" / "roads.json.gz").read_bytes()))
    names = [r[0] for r in data["roads"]]
    cols = data["edge_columns"]
    made_up = [e for e in data["edges"] if e[cols.index("road")] >= 0
               and names[e[cols.index("road")]].endswith(render.MADE_UP_MARK)]
    assert len(made_up) >= 300
    nodes = data["nodes"]
    checked = 0
    for edge in made_up[:40]:
        (ax, ay), (bx, by) = nodes[edge[0]], nodes[edge[1]]
        mx, my = (ax + bx) / 2, (ay + by) / 2          # the middle of the link: one tile at zoom 16
        z, tx, ty = tile_of(mx, my, 16)
        img = Image.open(io.BytesIO(rend.tile(z, tx, ty))).convert("RGB")
        wx, wy = render.project([ax, bx], [ay, by])
        scale = 256 * (1 << z) / 256
        px = [(float(v) * scale - tx * 256, float(w) * scale - ty * 256) for v, w in zip(wx, wy)]
        samples = []
        for k in range(200):
            t = k / 199
            x, y = px[0][0] + (px[1][0] - px[0][0]) * t, px[0][1] + (px[1][1] - px[0][1]) * t
            if 2 <= x < 254 and 2 <= y < 254:
                samples.append(img.getpixel((int(x), int(y))))
        if len(samples) < 60:
            continue
        checked += 1
        arterial = render.ROAD_STYLE["arterial"][0]
        assert sum(c == arterial for c in samples) < len(samples) / 4, "a made-up link drawn as an arterial"
        grey = [max(c) - min(c) < 30 and max(c) < 170 for c in samples]
        assert 0.2 < sum(grey) / len(grey) < 0.85, f"not dashed: {sum(grey)}/{len(grey)} grey"
    assert checked >= 5
