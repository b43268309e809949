"""Raster tiles of the sandbox's world, drawn with Pillow.

Layers, bottom to top: sea (the background), land (the ``sido`` polygon of ``local/regions_b.geojson``),
dong boundaries (``emd``, from zoom 12), district boundaries (``sigungu``), the road graph of
``navi/roads.json.gz`` by class (motorway, arterial, main; local streets from zoom 14), the graph's made-up links
(a name ending in :data:`MADE_UP_MARK`, as the data marks them: straight lines between two nodes, no street on the
ground) thin, grey and dashed from zoom 12, so no one takes them for streets; labels: district names
up to zoom 13, dong names from zoom 14 (NanumGothic, the bundled Hangul font). Everything is read from the
sandbox's datasets folder, whatever districts it holds.

Speed: all geometry is projected once to Web Mercator pixels at zoom 0 (numpy arrays) with a bounding box per
ring / road segment, so a tile only touches what overlaps it; tiles are drawn at 2× and downsampled (smooth
lines), and kept in a per-process LRU cache of PNG bytes. Labels are placed in world pixels, so a label that
crosses a tile edge is drawn in both tiles at the same place (no cut names).
"""
from __future__ import annotations

import gzip
import json
import math
import threading
from collections import OrderedDict
from pathlib import Path

import numpy as np

__all__ = ["TileRenderer", "renderer", "MAX_ZOOM", "TILE"]

TILE = 256
MAX_ZOOM = 18
STYLE = 2
"""The look of the tiles: raised when a change redraws them (2: made-up links dashed), so that caches keyed on it
(the Jupyter route's ETag) do not serve the old look under an unchanged release number."""
SS = 2                      # supersampling factor
CACHE_SIZE = 4096           # tiles kept (least recently used dropped first), and at most CACHE_BYTES of PNG: the
CACHE_BYTES = 48 * 2 ** 20  # city's tiles measured ~8 kB each on average (sea tiles far less, dense streets more)

SEA = (170, 211, 223)
LAND = (242, 239, 233)
DONG_LINE = (190, 178, 204)
DISTRICT_LINE = (132, 110, 160)
ROAD_STYLE = {             # class → (fill, casing, width in px at zoom 15, minimum zoom)
    "motorway": ((232, 146, 162), (190, 90, 110), 6.0, 9),
    "arterial": ((252, 214, 164), (200, 150, 90), 5.0, 10),
    "main": ((255, 255, 255), (190, 180, 165), 4.0, 12),
    "local": ((255, 255, 255), (205, 198, 188), 2.6, 14),
}
DRAW_ORDER = ("local", "main", "arterial", "motorway")
MADE_UP_MARK = "(가상)"
"""How the road graph marks a made-up link in its name (``…연결로(가상)``, ``수정산터널(가상)``; datasets/README.md)."""
MADE_UP_STYLE = ((110, 110, 110), 1.4, 12, (7.0, 5.0))
"""Made-up links: colour, width in px, minimum zoom, (dash, gap) in px."""

_lock = threading.Lock()
_renderers: dict[Path, "TileRenderer"] = {}


def renderer(datasets: Path) -> "TileRenderer":
    """The process-wide renderer of a datasets folder (built once; tiles depend only on the data)."""
    key = Path(datasets).resolve()
    with _lock:
        if key not in _renderers:
            _renderers[key] = TileRenderer(key)
        return _renderers[key]


def project(lon, lat):
    """WGS84 degrees → Web Mercator pixels at zoom 0 (a 256-pixel world)."""
    lon = np.asarray(lon, dtype=float)
    lat = np.clip(np.asarray(lat, dtype=float), -85.0511, 85.0511)
    x = (lon + 180.0) / 360.0 * TILE
    s = np.sin(np.radians(lat))
    y = (0.5 - np.log((1 + s) / (1 - s)) / (4 * math.pi)) * TILE
    return x, y


class _Rings:
    """Polygon rings (outer and holes) in zoom-0 pixels with a bounding box each."""

    def __init__(self):
        self.rings: list[np.ndarray] = []
        self.hole: list[bool] = []
        self.owner: list[int] = []

    def add(self, geometry: dict, owner: int) -> None:
        polys = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
        for poly in polys:
            for k, ring in enumerate(poly):
                a = np.asarray(ring, dtype=float)[:, :2]
                x, y = project(a[:, 0], a[:, 1])
                self.rings.append(np.column_stack([x, y]))
                self.hole.append(k > 0)
                self.owner.append(owner)

    def freeze(self) -> None:
        self.box = np.array([[r[:, 0].min(), r[:, 1].min(), r[:, 0].max(), r[:, 1].max()] for r in self.rings]) \
            if self.rings else np.zeros((0, 4))

    def overlapping(self, x0, y0, x1, y1) -> np.ndarray:
        b = self.box
        return np.nonzero((b[:, 0] <= x1) & (b[:, 2] >= x0) & (b[:, 1] <= y1) & (b[:, 3] >= y0))[0]


class TileRenderer:
    def __init__(self, datasets: Path):
        from shapely.geometry import shape

        from ...fonts import hangul_font_path

        self.font_path = str(hangul_font_path())
        self.bold_path = str(hangul_font_path(bold=True))
        self._fonts: dict[tuple[bool, int], object] = {}
        regions = json.loads((datasets / "local" / "regions_b.geojson").read_text(encoding="utf-8"))
        self.land, self.districts, self.dongs = _Rings(), _Rings(), _Rings()
        self.labels: dict[str, list[tuple[float, float, str, float]]] = {"sigungu": [], "emd": []}
        for i, f in enumerate(regions.get("features", [])):
            level, geom = f["properties"].get("level"), f.get("geometry")
            if not geom or geom["type"] not in ("Polygon", "MultiPolygon"):
                continue
            target = {"sido": self.land, "sigungu": self.districts, "emd": self.dongs}.get(level)
            if target is None:
                continue
            target.add(geom, i)
            if level in self.labels:
                shp = shape(geom)
                p = shp.representative_point()
                x, y = project(p.x, p.y)
                extent = math.sqrt(max(shp.area, 1e-12))          # degrees: the size of the region, for fitting
                self.labels[level].append((float(x), float(y), f["properties"].get("name", ""), extent))
        if not self.land.rings:                                      # no sido polygon: the districts are the land
            for r, h, o in zip(self.districts.rings, self.districts.hole, self.districts.owner):
                self.land.rings.append(r)
                self.land.hole.append(h)
                self.land.owner.append(o)
        for rings in (self.land, self.districts, self.dongs):
            rings.freeze()
        self._load_roads(datasets / "navi" / "roads.json.gz")
        self._cache: OrderedDict[tuple[int, int, int], bytes] = OrderedDict()
        self._cache_bytes = 0
        self._clock = threading.Lock()
        self.hits = self.misses = 0

    def _load_roads(self, path: Path) -> None:
        data = json.loads(gzip.decompress(path.read_bytes()))
        nodes = np.asarray(data["nodes"], dtype=float)
        nx_, ny_ = project(nodes[:, 0], nodes[:, 1])
        cols = data["edge_columns"]
        e = np.asarray(data["edges"], dtype=float)
        u, v, road = (e[:, cols.index(c)].astype(int) for c in ("u", "v", "road"))
        classes = [r[1] for r in data["roads"]]
        made_up = [str(r[0]).endswith(MADE_UP_MARK) for r in data["roads"]]
        cls = np.array([classes[r] if r >= 0 else "local" for r in road], dtype=object)
        if "motorway" in cols:
            cls[e[:, cols.index("motorway")].astype(bool)] = "motorway"
        cls[np.array([r >= 0 and made_up[r] for r in road], dtype=bool)] = "made_up"
        self.roads = {}
        for c in (*DRAW_ORDER, "made_up"):
            k = cls == c
            seg = np.column_stack([nx_[u[k]], ny_[u[k]], nx_[v[k]], ny_[v[k]]])
            box = np.column_stack([np.minimum(seg[:, 0], seg[:, 2]), np.minimum(seg[:, 1], seg[:, 3]),
                                   np.maximum(seg[:, 0], seg[:, 2]), np.maximum(seg[:, 1], seg[:, 3])])
            self.roads[c] = (seg, box)

    # ------------------------------------------------------------------ cache
    def cached(self, z: int, x: int, y: int) -> bytes | None:
        with self._clock:
            png = self._cache.get((z, x, y))
            if png is not None:
                self._cache.move_to_end((z, x, y))
                self.hits += 1
            return png

    def tile(self, z: int, x: int, y: int) -> bytes:
        """The PNG bytes of tile ``z/x/y`` (from the cache when drawn before)."""
        png = self.cached(z, x, y)
        if png is not None:
            return png
        png = self.draw(z, x, y)
        with self._clock:
            self.misses += 1
            if (z, x, y) not in self._cache:
                self._cache[(z, x, y)] = png
                self._cache_bytes += len(png)
            while len(self._cache) > CACHE_SIZE or self._cache_bytes > CACHE_BYTES:
                self._cache_bytes -= len(self._cache.popitem(last=False)[1])
        return png

    # ------------------------------------------------------------------ drawing
    def _font(self, bold: bool, size: int):
        from PIL import ImageFont

        key = (bold, size)
        if key not in self._fonts:
            self._fonts[key] = ImageFont.truetype(self.bold_path if bold else self.font_path, size)
        return self._fonts[key]

    def draw(self, z: int, x: int, y: int) -> bytes:
        import io

        from PIL import Image, ImageDraw

        scale = float(1 << z)
        x0, y0 = x * TILE / scale, y * TILE / scale                 # tile bounds in zoom-0 pixels
        x1, y1 = (x + 1) * TILE / scale, (y + 1) * TILE / scale
        pad = 4 / scale
        k = scale * SS

        def px(arr):
            return [(float(a), float(b)) for a, b in zip((arr[:, 0] - x0) * k, (arr[:, 1] - y0) * k)]

        img = Image.new("RGB", (TILE * SS, TILE * SS), SEA)
        d = ImageDraw.Draw(img)
        for i in self.land.overlapping(x0 - pad, y0 - pad, x1 + pad, y1 + pad):
            ring = self.land.rings[i]
            if len(ring) >= 3:
                d.polygon(px(ring), fill=SEA if self.land.hole[i] else LAND)
        if z >= 12:
            wd = max(1, round(SS * (0.8 if z < 15 else 1.2)))
            for i in self.dongs.overlapping(x0 - pad, y0 - pad, x1 + pad, y1 + pad):
                d.line(px(self.dongs.rings[i]), fill=DONG_LINE, width=wd)
        wdist = max(1, round(SS * (1.2 if z < 12 else 2.0)))
        for i in self.districts.overlapping(x0 - pad, y0 - pad, x1 + pad, y1 + pad):
            d.line(px(self.districts.rings[i]), fill=DISTRICT_LINE, width=wdist, joint="curve")
        self._draw_roads(d, z, x0, y0, x1, y1, k)
        self._draw_made_up(d, z, x0, y0, x1, y1, k)
        self._draw_labels(d, z, x0, y0, x1, y1, k)
        img = img.resize((TILE, TILE), Image.Resampling.LANCZOS)
        buf = io.BytesIO()
        img.save(buf, "PNG", compress_level=3)
        return buf.getvalue()

    def _draw_roads(self, d, z, x0, y0, x1, y1, k) -> None:
        zoom_factor = 2 ** ((z - 15) * 0.6)
        visible = [c for c in DRAW_ORDER if z >= ROAD_STYLE[c][3]]
        for casing in (True, False):
            for c in visible:
                fill, edge, width, _ = ROAD_STYLE[c]
                seg, box = self.roads[c]
                pad = width * 2 / (1 << z)
                idx = np.nonzero((box[:, 0] <= x1 + pad) & (box[:, 2] >= x0 - pad) &
                                 (box[:, 1] <= y1 + pad) & (box[:, 3] >= y0 - pad))[0]
                if not len(idx):
                    continue
                w = max(1.0, width * zoom_factor) * SS
                if casing:
                    w += 1.5 * SS
                pts = (seg[idx] - [x0, y0, x0, y0]) * k
                color = edge if casing else fill
                wi = max(1, round(w))
                r = wi / 2
                for ax, ay, bx, by in pts.tolist():
                    d.line((ax, ay, bx, by), fill=color, width=wi)
                    if wi >= 4:                                    # round joints between consecutive segments
                        d.ellipse((ax - r, ay - r, ax + r, ay + r), fill=color)

    def _draw_made_up(self, d, z, x0, y0, x1, y1, k) -> None:
        """The made-up links: thin grey dashes over the roads (:data:`MADE_UP_STYLE`)."""
        color, width, min_zoom, (dash, gap) = MADE_UP_STYLE
        if z < min_zoom:
            return
        seg, box = self.roads["made_up"]
        pad = 4 / (1 << z)
        idx = np.nonzero((box[:, 0] <= x1 + pad) & (box[:, 2] >= x0 - pad) &
                         (box[:, 1] <= y1 + pad) & (box[:, 3] >= y0 - pad))[0]
        wi = max(1, round(width * SS))
        on, off = dash * SS, gap * SS
        for ax, ay, bx, by in ((seg[idx] - [x0, y0, x0, y0]) * k).tolist():
            length = math.hypot(bx - ax, by - ay)
            if length == 0:
                continue
            ux, uy = (bx - ax) / length, (by - ay) / length
            t = 0.0
            while t < length:
                t2 = min(t + on, length)
                d.line((ax + ux * t, ay + uy * t, ax + ux * t2, ay + uy * t2), fill=color, width=wi)
                t = t2 + off

    def _draw_labels(self, d, z, x0, y0, x1, y1, k) -> None:
        if z <= 13:
            level, bold, size, color = "sigungu", True, (12 if z <= 11 else 14), (70, 50, 100)
        else:
            level, bold, size, color = "emd", False, 13, (60, 60, 60)
        if z < 10:
            return
        font = self._font(bold, size * SS)
        for lx, ly, name, extent in self.labels[level]:
            if not name:
                continue
            left, top, right, bottom = font.getbbox(name)
            w, h = (right - left) / k, (bottom - top) / k             # text size in zoom-0 pixels
            if level == "emd" and z == 14 and w > extent / 360 * TILE * 1.6:
                continue                                              # a small dong: its name would not fit
            if lx + w / 2 < x0 or lx - w / 2 > x1 or ly + h / 2 < y0 or ly - h / 2 > y1:
                continue
            cx, cy = (lx - x0) * k, (ly - y0) * k
            d.text((cx, cy), name, font=font, fill=color, anchor="mm", stroke_width=2 * SS,
                   stroke_fill=(255, 255, 255))
