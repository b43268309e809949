"""Code tables of driving directions, shared by :mod:`toolkit.navi` (frames) and :mod:`toolkit.navimaps` (maps)
so that neither imports the other at module level.

>>> TRAFFIC_STATES[1], GUIDE_TYPES[1], GUIDE_TYPES_EN[1]
('정체', '좌회전', 'turn left')
"""
from __future__ import annotations

__all__ = ["TRAFFIC_STATES", "GUIDE_TYPES", "TRAFFIC_STATES_EN", "GUIDE_TYPES_EN"]

#: traffic_state codes (the spec does not show them; these are the real platform's)
TRAFFIC_STATES = {0: "정보없음", 1: "정체", 2: "지체", 3: "서행", 4: "원활", 6: "통제"}
#: guide types used by the sandbox (modelled on the real platform)
GUIDE_TYPES = {0: "직진", 1: "좌회전", 2: "우회전", 3: "유턴", 5: "왼쪽 방향", 6: "오른쪽 방향",
               100: "출발지", 101: "목적지", 1000: "경유지"}
#: the same codes in English (notebooks/reference/concepts.md, "Driving directions: units and codes")
TRAFFIC_STATES_EN = {0: "no information", 1: "jammed", 2: "delayed", 3: "slow", 4: "smooth", 6: "closed"}
GUIDE_TYPES_EN = {0: "straight on", 1: "turn left", 2: "turn right", 3: "U-turn", 5: "keep left", 6: "keep right",
                  100: "origin", 101: "destination", 1000: "waypoint"}
