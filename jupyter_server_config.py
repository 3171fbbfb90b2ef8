"""Jupyter server configuration for JupyterLab and its Voila extension (``/voila/render/...``, Binder).

``tools/lab`` points ``JUPYTER_CONFIG_PATH`` here; ``binder/postBuild`` links this file into
``~/.jupyter``.  The standalone ``voila`` command reads ``voila.json`` instead (same settings, except
that here a kernel with an open notebook is never culled: a teacher's notebook may sit idle a long time).
"""

import os
from pathlib import Path

c = get_config()  # noqa: F821 - provided by traitlets when it loads this file

HERE = Path(__file__).resolve().parent  # the repository (this file may be reached through a symlink)

os.environ.setdefault("BOKEH_RESOURCES", "inline")  # BokehJS from the installed package, never a CDN
_share = str(HERE / "share" / "jupyter")  # the "classroom" Voila template
if _share not in os.environ.get("JUPYTER_PATH", "").split(os.pathsep):
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (_share, os.environ.get("JUPYTER_PATH", "")) if p)

c.VoilaConfiguration.template = "classroom"
c.VoilaConfiguration.strip_sources = True
c.VoilaConfiguration.show_tracebacks = False

# Cull kernels whose pages are gone (closed tab, lost network) after 45 idle minutes, checked every minute.
c.MappingKernelManager.cull_idle_timeout = 45 * 60
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False
