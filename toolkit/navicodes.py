"""Code tables of driving directions, shared by :mod:`toolkit.navi` (frames) and :mod:`toolkit.navimaps` (maps)
so that neither imports the other at module level.

>>> TRAFFIC_STATES[1], GUIDE_TYPES[1], GUIDE_TYPES_EN[1]
('정체', '좌회전', 'turn left')
>>> RESULT_CODES[103], RESULT_CODES_EN[103]
('도착지 주변의 도로를 찾을 수 없음', 'no road found near the destination')
"""
from __future__ import annotations

__all__ = ["TRAFFIC_STATES", "GUIDE_TYPES", "TRAFFIC_STATES_EN", "GUIDE_TYPES_EN", "RESULT_CODES", "RESULT_CODES_EN",
           "result_en"]

#: traffic_state codes (the spec does not show them; these are the real platform's)
TRAFFIC_STATES = {0: "정보없음", 1: "정체", 2: "지체", 3: "서행", 4: "원활", 6: "통제"}
#: guide types used by the sandbox (modelled on the real platform)
GUIDE_TYPES = {0: "직진", 1: "좌회전", 2: "우회전", 3: "유턴", 5: "왼쪽 방향", 6: "오른쪽 방향",
               100: "출발지", 101: "목적지", 1000: "경유지"}
#: the same codes in English (notebooks/reference/concepts.md, "Driving directions: units and codes")
TRAFFIC_STATES_EN = {0: "no information", 1: "jammed", 2: "delayed", 3: "slow", 4: "smooth", 6: "closed"}
GUIDE_TYPES_EN = {0: "straight on", 1: "turn left", 2: "turn right", 3: "U-turn", 5: "keep left", 6: "keep right",
                  100: "origin", 101: "destination", 1000: "waypoint"}

#: result_code of a route (each route of a directions answer, each point of a many-origin or many-destination
#: answer) and the service's result_msg: the real platform's list (the spec does not show it; the sandbox answers
#: the same codes and messages). 1xx: directions and waypoints; 2xx: many origins; 3xx: many destinations.
RESULT_CODES = {
    0: "길찾기 성공", 1: "길찾기 결과를 찾을 수 없음",
    101: "경유지 주변의 도로를 찾을 수 없음", 102: "출발지 주변의 도로를 찾을 수 없음",
    103: "도착지 주변의 도로를 찾을 수 없음", 104: "출발지와 도착지가 5 m 이내로 설정된 경우 경로를 탐색할 수 없음",
    105: "출발지 주변의 도로에 교통 장애가 있음", 106: "도착지 주변의 도로에 교통 장애가 있음",
    107: "경유지 주변의 도로에 교통 장애가 있음",
    201: "출발지가 탐색 영역 밖에 있음", 202: "출발지 개수가 최대 개수를 초과함", 203: "도착지 주변의 도로를 찾을 수 없음",
    204: "탐색 시간 제한을 초과함", 205: "출발지 주변의 도로에 교통 장애가 있음",
    206: "도착지 주변의 도로에 교통 장애가 있음", 207: "출발지가 설정한 반경 밖에 있음",
    301: "출발지 주변의 도로를 찾을 수 없음", 302: "목적지 주변의 도로를 찾을 수 없음",
    303: "목적지 개수가 최대 개수를 초과함", 304: "목적지가 설정한 반경 밖에 있음",
}
#: the same codes in English (notebooks/reference/concepts.md, "Driving directions: units and codes")
RESULT_CODES_EN = {
    0: "route found", 1: "no route found (every way blocked, e.g. by avoid)",
    101: "no road found near a waypoint", 102: "no road found near the origin",
    103: "no road found near the destination",
    104: "origin and destination within 5 m of each other: no route is searched",
    105: "a road event (closure, works) on the road near the origin",
    106: "a road event (closure, works) on the road near the destination",
    107: "a road event (closure, works) on the road near a waypoint",
    201: "the origin lies outside the area searched (no road near it)", 202: "more origins than the maximum (30)",
    203: "no road found near the destination", 204: "the search ran out of time",
    205: "a road event (closure, works) on the road near the origin",
    206: "a road event (closure, works) on the road near the destination",
    207: "the origin lies farther than radius from the destination",
    301: "no road found near the origin", 302: "no road found near the destination",
    303: "more destinations than the maximum (30)", 304: "the destination lies farther than radius from the origin",
}


def result_en(code) -> str | None:
    """The English message of a route's ``result_code`` (None for none; an unknown code says so).

    >>> result_en(0), result_en(207), result_en(999)
    ('route found', 'the origin lies farther than radius from the destination', 'result_code 999 (not documented)')
    """
    if code is None or (isinstance(code, float) and code != code):          # None or NaN: no code
        return None
    try:
        code = int(code)
    except (TypeError, ValueError):
        return f"result_code {code!r} (not documented)"
    return RESULT_CODES_EN.get(code, f"result_code {code} (not documented)")
