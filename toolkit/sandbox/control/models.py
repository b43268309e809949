"""The control API has no state of its own: it acts on the other areas' models."""
SCHEMA = ""


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox
