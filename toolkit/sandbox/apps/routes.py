"""The apps area has no endpoint of its own; keys and quotas are used by every other area."""


def routes(sandbox):
    return {}
