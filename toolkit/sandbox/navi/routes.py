def routes(sandbox):
    return {}
