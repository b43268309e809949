SCHEMA = ""


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox
