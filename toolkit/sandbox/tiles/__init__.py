"""The sandbox's own base map: XYZ raster tiles of its world under ``/sandbox/tiles/{z}/{x}/{y}.png``
(see :mod:`toolkit.sandbox.tiles.render`)."""
