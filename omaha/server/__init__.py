"""``omaha serve``: a board in the browser, on a local web server.

The map is the library's own SVG; the legal actions are buttons (clicking a hex,
square or counter narrows them to the actions that name it); the log shows every
roll with the rule cited; undo, save and load of game records; bots move for the
sides nobody plays. Each browser that opens the printed link (it carries a random
token) plays its own game; a second person joins one side of a game by an
invitation link. Built on the standard library's ``http.server`` (no framework,
no dependency; the page loads nothing from outside): ``app`` (the server and its
routes), ``guard`` (the checks every request passes), ``bodies`` (request bodies
by type), ``tables`` (games, seats, bounds), ``starting`` (new and loaded games),
``scenarios`` (the scenarios offered).
"""

from omaha.server.app import make_server, serve

__all__ = ["make_server", "serve"]
