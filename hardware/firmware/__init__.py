"""The shoe and bet-zone board firmware (MicroPython), tested on CPython with stand-in modules.

Every module here except `deploy.py` and `standin/` runs on the boards, so it uses only what
MicroPython has: no dataclasses, enums, f-strings or runtime `typing` (types for mypy sit under
`if TYPE_CHECKING:` and in quoted annotations). `deploy.py` lays the files out for a board.
"""
