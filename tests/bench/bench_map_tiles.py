"""How a reopened map gets its base map, measured side by side (run: .venv/bin/python tests/bench/bench_map_tiles.py
[--short]).

1. **Size** of one stored map (the notebook's HTML output, ``_repr_html_``) of walkthrough-like maps (a route
   and a places map): with the tiles resolved in the browser through the Jupyter route (what toolkit stores),
   beside the same map with a tile URL in its HTML (how maps were stored before: no tiles, a dead port later) and
   beside the alternative of embedding the first view's tiles in every stored map; and the file ``m.save`` writes.
2. **Time to first tile** through toolkit's Jupyter server extension (a ``jupyter server`` subprocess with the
   extension; the first tile imports and builds the renderer), then tiles drawn and from the cache, beside
   ``toolkit sandbox``'s own tile route.
3. **Memory** of that Jupyter server (RSS) before any tile, after the first tile (renderer loaded) and after a
   pan of tiles; beside a server that forwards to a class sandbox (it holds no renderer).
4. **Forwarding vs local** in a class: the tile times of a student's server forwarding to ``toolkit classroom``
   beside a server drawing them itself.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_tiles import pan  # noqa: E402
from tests.bench.procs import _process, rss_mb  # noqa: E402
from tests.labrun import JupyterProcess  # noqa: E402


def _times(get, tiles) -> list[float]:
    out = []
    for z, x, y in tiles:
        t = time.perf_counter()
        r = get(z, x, y)
        out.append(time.perf_counter() - t)
        if r.status_code != 200 or r.headers.get("content-type") != "image/png":
            raise SystemExit(f"tile {z}/{x}/{y}: HTTP {r.status_code} {r.text[:200]}")
    return out


def _ms(values) -> str:
    return f"p50 {statistics.median(values) * 1000:6.1f} ms  mean {statistics.mean(values) * 1000:6.1f} ms"


def sizes() -> None:
    import folium

    import toolkit
    from toolkit import mapassets

    tk = toolkit.connect(fresh=True)
    try:
        route = tk.navi.directions((129.0325, 35.1000, "남포동"), (129.0600, 35.1570, "서면"),
                                   waypoints=[(129.0400, 35.1180, "초량")])
        cafes = tk.local.keyword("카페", x=129.059, y=35.158, radius=1000)
        from toolkit.maps import places_map

        makers = {"route (05)": lambda: route.map(), "places (04a)": lambda: places_map(cafes, center=(129.059,
                                                                                                       35.158))}
        print("1. one stored map, bytes of its notebook output (_repr_html_), and of the file m.save writes")
        print(f"{'map':14}{'URL in HTML':>14}{'Jupyter route':>15}{'route - URL':>13}{'embedded 1st':>14}"
              f"{'tiles':>7}{'m.save file':>13}")
        for name, make in makers.items():
            m = make()
            now = len(m._repr_html_().encode())
            layer = next(e for e in mapassets._walk(m) if isinstance(e, mapassets._tile_layer_class()))
            # before: a TileLayer with the sandbox's URL, as maps were stored (the same map otherwise)
            old = make()
            for key, child in list(old._children.items()):
                if isinstance(child, mapassets._tile_layer_class()):
                    del old._children[key]
            folium.TileLayer(mapassets.tiles_for(tk), attr=mapassets.SANDBOX_ATTRIBUTION, name="sandbox",
                             max_zoom=18, min_zoom=10).add_to(old)
            before = len(old._repr_html_().encode())
            layer.embedded = mapassets.embedded_tiles(m)
            embedded = len(m._repr_html_().encode())
            n = len(layer.embedded)
            layer.embedded = None
            with tempfile.TemporaryDirectory() as d:
                m.save(str(Path(d) / "m.html"))
                saved = (Path(d) / "m.html").stat().st_size
            print(f"{name:14}{before:14,}{now:15,}{now - before:+13,}{embedded:14,}{n:7}{saved:13,}")
            print(f"{'':14}embedding its first view in the stored map would add {(embedded - now) / 1024:.0f} KB "
                  f"({(embedded - now) / max(now - before, 1):.0f}x what the Jupyter route adds)")
    finally:
        tk.close()


def _extension_tiles(server: JupyterProcess, tiles) -> dict:
    """Through the server's ``/toolkit/tiles/`` route: the first tile, the other tiles drawn, then the same again
    from the cache (seconds); the server's RSS (MiB) when asked, after the first tile and after them all."""
    pid = server.proc.pid
    out = {"rss0": rss_mb(pid)}
    with httpx.Client(headers={"Authorization": f"token {server.token}"}, timeout=60) as http:
        url = server.url + "/toolkit/tiles/{}/{}/{}.png"
        t = time.perf_counter()
        http.get(url.format(*tiles[0])).raise_for_status()
        out["first"] = time.perf_counter() - t
        out["rss1"] = rss_mb(pid)
        out["cold"] = _times(lambda z, x, y: http.get(url.format(z, x, y)), tiles[1:])
        out["cached"] = _times(lambda z, x, y: http.get(url.format(z, x, y)), tiles[1:])
        out["rss2"] = rss_mb(pid)
    return out


def server_side(short: bool) -> None:
    from toolkit.classroom import read_secret, student_token

    tiles = pan(range(12, 14), 2) if short else pan(range(12, 17), 4)
    first = tiles[0]
    with tempfile.TemporaryDirectory(prefix="bench-map-tiles-") as folder:
        tmp = Path(folder)
        # the sandbox's own route, for reference
        with _process([sys.executable, "-m", "toolkit.cli", "sandbox", "--port", "0"], "toolkit sandbox") as (_, base):
            with httpx.Client(base_url=base, timeout=60) as http:
                t = time.perf_counter()
                http.get("/sandbox/tiles/{}/{}/{}.png".format(*first)).raise_for_status()
                sb_first = time.perf_counter() - t
                sb_cold = _times(lambda z, x, y: http.get(f"/sandbox/tiles/{z}/{x}/{y}.png"), tiles[1:])
        # a Jupyter server drawing the tiles itself
        with JupyterProcess.server_of_checkout(tmp / "local") as server:
            local = _extension_tiles(server, tiles)
        # a class: toolkit classroom, and a student's server forwarding to it
        secret_file = tmp / "class.secret"
        secret = read_secret(secret_file, create=True)
        cmd = [sys.executable, "-m", "toolkit.cli", "classroom", "--port", "0", "--secret-file", str(secret_file)]
        with _process(cmd, "toolkit classroom") as (room, class_url):
            env = {"TOOLKIT_CLASSROOM_URL": class_url, "TOOLKIT_CLASSROOM_TOKEN": student_token(secret, "ann"),
                   "JUPYTERHUB_USER": "ann"}
            with JupyterProcess.server_of_checkout(tmp / "forward", env=env) as server:
                forwarded = _extension_tiles(server, tiles)
                room_rss = rss_mb(room.pid)
    n = len(tiles) - 1
    print(f"\n2. time to first tile (imports and builds the renderer) and {n} more tiles of a pan, zoom 12-"
          f"{tiles[-1][0]}")
    print(f"{'':34}{'first tile':>12}   {'drawn':30}{'again (cached)':30}")
    print(f"{'toolkit sandbox /sandbox/tiles':34}{sb_first * 1000:10.0f}ms   {_ms(sb_cold):30}")
    for label, m in (("Jupyter extension, drawn here", local), ("Jupyter extension, forwarded", forwarded)):
        print(f"{label:34}{m['first'] * 1000:10.0f}ms   {_ms(m['cold']):30}{_ms(m['cached']):30}")
    print(f"   forwarded/local drawn p50 = {statistics.median(forwarded['cold']) / statistics.median(local['cold']):.2f}x, "
          f"cached p50 = {statistics.median(forwarded['cached']) / statistics.median(local['cached']):.2f}x")
    print("\n3. the Jupyter server's memory (RSS, MiB)")
    print(f"{'':34}{'started':>10}{'after tiles':>14}{'added':>10}")
    print(f"{'drawn here':34}{local['rss0']:10.1f}{local['rss2']:14.1f}{local['rss2'] - local['rss0']:+10.1f}   "
          f"(after the first tile: {local['rss1']:.1f})")
    print(f"{'forwarded to the class sandbox':34}{forwarded['rss0']:10.1f}{forwarded['rss2']:14.1f}"
          f"{forwarded['rss2'] - forwarded['rss0']:+10.1f}   (the class sandbox, one renderer for the class: "
          f"{room_rss:.1f})")


def main(argv=None) -> int:
    short = "--short" in (sys.argv[1:] if argv is None else argv)
    sizes()
    server_side(short)
    return 0


if __name__ == "__main__":
    sys.exit(main())
