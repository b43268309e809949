"""The sandbox: a faithful emulator of the whole service, served over real HTTP on loopback, backed by SQLite.

>>> from toolkit.sandbox.server import SandboxServer
>>> with SandboxServer() as server:          # doctest: +SKIP
...     print(server.hosts()["local"])

Layout (moto style): ``<area>/routes.py`` parses HTTP and renders answers; ``<area>/models.py`` holds state
and rules on top of :mod:`toolkit.sandbox.store`. The control API under ``/sandbox/...`` is not part of the
service: it lets tests and notebooks act as the end user or the platform.
"""
