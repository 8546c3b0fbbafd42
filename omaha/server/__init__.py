"""``omaha serve``: a board in the browser, on a local web server.

The map is the library's own SVG; the legal actions are buttons (clicking a hex,
square or counter narrows them to the actions that name it); the log shows every
roll with the rule cited; undo, save and load of game records; bots move for the
sides nobody plays. Built on the standard library's ``http.server``: one person
at a time on their own machine needs no framework, no dependency and no network
beyond loopback (the page loads nothing from outside).
"""

from omaha.server.app import make_server, serve

__all__ = ["make_server", "serve"]
