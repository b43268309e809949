"""Sample files the walkthroughs read, shipped inside the package, so a notebook finds them wherever it is opened
(a checkout, a folder made by ``toolkit walkthroughs DIR``, a JupyterHub server) without ``../`` paths.

>>> import toolkit.samples
>>> toolkit.samples.path("customers_busan.csv").name
'customers_busan.csv'
>>> sorted(toolkit.samples.SAMPLES)
['customers_busan.csv']

Where each file comes from and under which terms: ``toolkit.data.notice()`` (``toolkit/data/NOTICE.md``).
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["SAMPLES", "path", "describe"]

SAMPLES = {
    "customers_busan.csv": ("samples/customers_busan.csv",
                            "a messy customer list of real Busan addresses (made-up customers) for lesson 04b"),
}
"""Sample name → (file under :func:`toolkit.data.root`, what it holds)."""


def path(name: str) -> Path:
    """The path of the sample file ``name`` (one of :data:`SAMPLES`), ready for ``pandas.read_csv``.

    >>> import pandas as pd, toolkit.samples
    >>> pd.read_csv(toolkit.samples.path("customers_busan.csv"), dtype=str).shape[1] > 3
    True
    """
    from .data import root

    if name not in SAMPLES:
        from .errors import closed_set_error

        raise closed_set_error("name", name, sorted(SAMPLES), "a sample file of toolkit")
    return root() / SAMPLES[name][0]


def describe() -> dict[str, str]:
    """Each sample's name and what it holds.

    >>> "customers_busan.csv" in describe()
    True
    """
    return {name: what for name, (_, what) in SAMPLES.items()}
