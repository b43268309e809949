"""What directions say to an analyst: every origin beyond the many-origin radius is named in a warning, and the
past-departure error's hint speaks of the time."""
from __future__ import annotations

import warnings

import pytest

from toolkit import errors

DEST = (129.0592, 35.1579)


def test_origins_beyond_the_radius_are_each_named_in_a_warning(tk):
    near = [("near", 129.0450, 35.1500)]
    far = [(f"far{i}", 129.20 + 0.01 * i, 35.25) for i in range(3)]
    with pytest.warns(UserWarning, match=r"navi.origins: 3 of 4 origins are farther than radius .* 'far0', 'far1', "
                                         r"'far2'.*at most 10,000 m"):
        out = tk.navi.origins(near + far, DEST)
    assert list(out.loc[out["result_code"] == 207, "key"]) == ["far0", "far1", "far2"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # all within the radius: no warning
        tk.navi.origins(near, DEST)


def test_the_past_departure_hint_speaks_of_the_time(tk):
    with pytest.raises(errors.ApiError) as seen:
        tk.navi.future((129.0325, 35.1000), DEST, "202001010900")
    assert "departure_time must not be in the past" in seen.value.msg
    assert "Korean time" in seen.value.hint and "scope" not in seen.value.hint
