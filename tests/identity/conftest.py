from __future__ import annotations

import pytest

from .helpers import Browser


@pytest.fixture
def browser(fresh_server):
    b = Browser(fresh_server)
    yield b
    b.close()
