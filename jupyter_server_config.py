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


def _trust_project_notebooks(root: Path) -> None:
    """Sign the project's own notebooks in this user's trust database (issue #31), so that JupyterLab marks their
    cells trusted and "Render with Voila" opens at once instead of asking about an untrusted notebook.  Only the
    notebooks shipped in the repository are signed; a notebook uploaded by anyone else keeps Jupyter's usual check."""
    try:
        import nbformat
        from nbformat.sign import NotebookNotary
    except ImportError:  # a server without nbformat has no notebooks to trust
        return
    notary = NotebookNotary()
    for path in sorted(root.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        try:
            nb = nbformat.read(path, as_version=4)
            if not notary.check_signature(nb):
                notary.sign(nb)
        except Exception as err:  # a damaged notebook must not stop the server
            print(f"[wargames] could not trust {path}: {err}")


_trust_project_notebooks(HERE / "notebooks")

# No MathJax from a CDN (issue #31): with both settings null, Voila's page (in JupyterLab at /voila/render/...)
# renders math with the MathJax bundled in its own JavaScript instead of fetching MathJax from cdnjs.
c.ServerApp.tornado_settings = {"mathjax_url": None, "mathjax_config": None}
