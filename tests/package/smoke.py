"""The README's first steps, as a user of a regular install runs them from any folder: connect, a keyword search,
a route, a map, a plot with Hangul. Run by the installed environment's Python (``tests/package``); prints one
JSON object of what it saw, which the test checks."""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import toolkit

out = Path(sys.argv[1])
seen = {"toolkit_file": toolkit.__file__, "sys_path": sys.path}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    tk = toolkit.connect()
    status = tk.status.current()
    seen["status_rows"] = len(status)
    cafes = tk.local.keyword("카페", x=129.0592, y=35.1579, radius=1000)
    seen["cafes"] = len(cafes)
    seen["cafes_x_dtype"] = str(cafes["x"].dtype)
    route = tk.navi.directions((129.0325, 35.1000, "남포동"), (129.0600, 35.1570, "서면"))
    seen["route_ok"] = bool(route.ok)
    seen["route_m"] = int(route.summary.loc[0, "distance"])
    from toolkit.maps import places_map

    m = places_map(cafes, center=(129.0592, 35.1579), radius=1000)
    html = m.get_root().render()
    (out / "map.html").write_text(html, "utf-8")
    seen["map_has_leaflet"] = "L.map(" in html or "L.map (" in html
    seen["map_remote_scripts"] = sorted({part.split('"')[0] for part in html.split('<script src="')[1:]
                                          if part.startswith("http")})
    fig = tk.status.report(days=14)
    fig.savefig(out / "report.png", dpi=60)
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    toolkit.plots.use_hangul_font()               # a script's own plots (a kernel's connect() does this itself)
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.barh(status["productName"].astype(str), range(1, len(status) + 1))
    ax.set_title("상품별 상태")
    fig.savefig(out / "hangul.png", dpi=60)
    texts = [t.get_text() for t in (*ax.get_yticklabels(), ax.title)]
    seen["hangul_labels"] = sum(any("\uac00" <= ch <= "\ud7a3" for ch in t) for t in texts)
    family = plt.rcParams["font.family"]
    seen["font_family"] = family if isinstance(family, str) else list(family)
    seen["hangul_font_file"] = Path(font_manager.findfont("NanumGothic", fallback_to_default=False)).name
    tk.close()
seen["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
print(json.dumps(seen, ensure_ascii=False))
