"""The reference of the server benchmark: one Starlette JSON endpoint served by the sandbox's own server stack
(:class:`toolkit.loopback.LoopbackServer`: the same uvicorn settings), in its own process. Prints its URL."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from starlette.applications import Starlette  # noqa: E402
from starlette.responses import JSONResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from toolkit.loopback import LoopbackServer  # noqa: E402

DOC = {"meta": {"total_count": 1, "pageable_count": 1, "is_end": True},
       "documents": [{"address_name": "부산 부산진구 전포동 341-17", "address_type": "REGION_ADDR",
                      "x": "129.0652", "y": "35.1549"}]}


async def answer(request):
    return JSONResponse(DOC)


def main() -> None:
    server = LoopbackServer(Starlette(routes=[Route("/json", answer)]), 0, name="minimal")
    server.serve_forever(on_bound=lambda s: print(f"minimal app on {s.base_url}", flush=True))


if __name__ == "__main__":
    main()
