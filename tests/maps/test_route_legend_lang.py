"""Route maps speak one language: ``lang="ko"`` (default) or ``lang="en"`` for the legend, tooltips and markers."""
from __future__ import annotations

import re

import pytest

from toolkit.navicodes import TRAFFIC_STATES, TRAFFIC_STATES_EN
from toolkit.navimaps import route_map

KO_WORDS = ("교통 상황", "대안 경로", "출발", "경유", "도착", "택시", *TRAFFIC_STATES.values())
EN_WORDS = ("traffic<", ">traffic", "alternative", "route 0", "origin ", "waypoint", "destination", "taxi",
            *(f"{w} (" for w in TRAFFIC_STATES_EN.values()))


def _texts(m) -> str:
    """The map's own words: legend and tooltips (road names and guidance are the service's data)."""
    html = m.get_root().render()
    box = re.search(r'<div class="toolkit-legend".*?</div></div>', html, re.S).group(0)
    legend = re.findall(r"<b>([^<]*)</b>", box) + re.findall(r"</span>([^<]*)</div>", box)
    tips = re.findall(r'bindTooltip\(\s*`<div>\s*([^`]*?)\s*</div>`', html)
    return "\n".join(legend + tips)


def test_the_route_map_speaks_one_language(tk):
    r = tk.navi.directions((129.0325, 35.1000, "남포동"), (129.0600, 35.1570, "서면"),
                           waypoints=[(129.0400, 35.1180, "초량")], alternatives=True)
    ko, en = _texts(route_map(r)), _texts(r.map(lang="en"))
    assert "교통 상황" in ko and "대안 경로 1" in ko and "출발 남포동" in ko and "경유 1 초량" in ko
    assert "traffic" in en and "alternative 1" in en and "origin 남포동" in en and "waypoint 1 초량" in en
    assert re.search(r"(jammed|delayed|slow|smooth|no information) \(\d\)", en)
    # the number in brackets is the traffic_state code (not a count), and the legend's title says so
    assert en.splitlines()[0] == "traffic state (code)" and ko.splitlines()[0] == "교통 상황 (코드)"
    states = {int(k) for k in re.findall(r"\((\d)\)", en.split("alternative")[0])}
    assert states == set(r.roads["traffic_state"]), (states, set(r.roads["traffic_state"]))
    assert not [w for w in EN_WORDS if w in ko], [w for w in EN_WORDS if w in ko]
    assert not [w for w in KO_WORDS if w in en], [w for w in KO_WORDS if w in en]
    with pytest.raises(ValueError, match="lang must be 'ko' or 'en'"):
        route_map(r, lang="fr")
