"""The Voila server of the classroom apps: Voila itself, plus BokehJS served once as static files (issue #32).

``python -m wargames.notebook.voilaserver NOTEBOOK [voila options]`` is ``voila`` with one more route,
``{base_url}wargames/bokehjs/static/...``, serving the installed Bokeh package's JavaScript bundles
(``bokeh/server/static``) with the usual caching headers (ETag, Last-Modified).  The server sets
``$WARGAMES_BOKEHJS_URL`` to that prefix before its kernels start, so ``setup_notebook()`` in every kernel puts two
script tags in the page instead of 1.6 MB of inlined JavaScript inside the cell's output (Voila inlines it twice,
as JavaScript and as Bokeh's loader, 8 MB a page with every bundle): the page is small, the browser compiles the
bundles from a file it can cache and reuse after a reload, and the server does not re-send them with every page.
Nothing is fetched from a CDN.  ``wargames.notebook.app`` starts apps with it.
"""

from __future__ import annotations

import os
from typing import Any

from voila.app import Voila

from .kit import ENV_BOKEHJS

#: The route of the BokehJS files, under the server's base URL.
BOKEHJS_ROUTE = "wargames/bokehjs/"


def bokehjs_dir() -> str:
    """The installed Bokeh package's static folder (``static/js/bokeh.min.js`` and the other bundles)."""
    from bokeh.util.paths import server_path

    return str(server_path() / "static")


class ClassVoila(Voila):
    """Voila with the BokehJS route; every Voila option and config file (``voila.json``) applies unchanged."""

    name = "voila"

    def init_settings(self) -> dict[str, Any]:
        """Tell the kernels (started from this process's environment) where BokehJS is served."""
        from jupyter_server.utils import url_path_join

        os.environ[ENV_BOKEHJS] = url_path_join(self.base_url or "/", BOKEHJS_ROUTE)
        return super().init_settings()

    def init_handlers(self) -> list:
        """Voila's routes and ``{base_url}wargames/bokehjs/static/(.*)`` for the BokehJS bundles."""
        from jupyter_server.utils import url_path_join
        from tornado.web import StaticFileHandler

        route = url_path_join(self.base_url or "/", BOKEHJS_ROUTE, "static/(.*)")
        return [(route, StaticFileHandler, {"path": bokehjs_dir()}), *super().init_handlers()]


main = ClassVoila.launch_instance

if __name__ == "__main__":
    main()
