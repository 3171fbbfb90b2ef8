"""JupyterHub for a class that outgrows one server (issue #32 item 5): every student logs in and gets an app server of
their own (a Jupyter server showing the Voila app), behind configurable-http-proxy; an idle-culler service stops the
servers of students who left; every game is saved in one shared class store (PostgreSQL for a real school).

    bash tools/hub                          # installs what is missing (see there), then starts this hub

Settings come from the environment (defaults in brackets):

* ``WARGAMES_HUB_URL``: where students connect [http://127.0.0.1:8000]
* ``WARGAMES_HUB_APP``: the app every student opens: tet, yotr, fitl or row [tet]
* ``WARGAMES_HUB_AUTH``: the authenticator [dummy: any name, the shared password ``WARGAMES_HUB_PASSWORD`` if set;
  for a school use a real one, e.g. ``nativeauthenticator.NativeAuthenticator`` or an LTI/OAuth authenticator]
* ``WARGAMES_HUB_SPAWNER``: [simple: every student's server is a process of the hub's own user, no system accounts;
  ``localprocess`` for one system user per student, or e.g. ``dockerspawner.DockerSpawner`` on several machines]
* ``WARGAMES_STORE_URL``: the class store [an SQLite file in the hub's state folder, fine on one machine; use
  ``postgresql+psycopg://user:password@dbhost/wargames`` when the servers run on several machines]
* ``WARGAMES_HUB_CULL``: seconds of inactivity before the idle culler stops a student's server [1200]
* ``WARGAMES_HUB_STATE``: the hub's own database, cookie secret and proxy pid [hub/state]
* ``WARGAMES_HUB_API`` / ``WARGAMES_PROXY_API``: the hub's and the proxy's internal addresses
  [http://127.0.0.1:8081, http://127.0.0.1:8001]; ``WARGAMES_CHP``: the configurable-http-proxy command
  [on PATH, else hub/node_modules/.bin]

Binder stays the no-install path for one student (README).
"""

import os
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821 - provided by traitlets when it loads this file

ROOT = Path(__file__).resolve().parents[1]
env = os.environ.get
STATE = Path(env("WARGAMES_HUB_STATE") or ROOT / "hub" / "state")
STATE.mkdir(parents=True, exist_ok=True)
APP = env("WARGAMES_HUB_APP") or "tet"
if APP not in ("tet", "yotr", "fitl", "row"):
    raise SystemExit(f"WARGAMES_HUB_APP={APP!r}: choose tet, yotr, fitl or row (notebooks/apps/)")

# --- the hub and the proxy
c.JupyterHub.bind_url = env("WARGAMES_HUB_URL") or "http://127.0.0.1:8000"
c.JupyterHub.hub_bind_url = env("WARGAMES_HUB_API") or "http://127.0.0.1:8081"
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.api_url = env("WARGAMES_PROXY_API") or "http://127.0.0.1:8001"
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
chp = env("WARGAMES_CHP") or shutil.which("configurable-http-proxy")
chp = chp or str(ROOT / "hub" / "node_modules" / ".bin" / "configurable-http-proxy")
c.ConfigurableHTTPProxy.command = [chp]
c.JupyterHub.cleanup_servers = True  # stopping the hub stops the students' servers

# --- who may log in
auth = env("WARGAMES_HUB_AUTH") or "dummy"
c.JupyterHub.authenticator_class = auth
if auth == "dummy":
    c.DummyAuthenticator.password = env("WARGAMES_HUB_PASSWORD") or ""
    c.Authenticator.allow_all = True

# --- one app server per student
spawner = env("WARGAMES_HUB_SPAWNER") or "simple"
c.JupyterHub.spawner_class = spawner
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.default_url = f"/voila/render/notebooks/apps/{APP}.ipynb"
c.Spawner.notebook_dir = str(ROOT)
c.Spawner.args = [f"--ServerApp.root_dir={ROOT}"]
if os.geteuid() == 0 and spawner == "simple":
    c.Spawner.args.append("--ServerApp.allow_root=True")  # the simple spawner runs servers as the hub's user
c.Spawner.http_timeout = 120
c.Spawner.start_timeout = 180
c.Spawner.environment = {
    "PYTHONPATH": str(ROOT),
    "JUPYTER_CONFIG_PATH": str(ROOT),  # jupyter_server_config.py: the classroom template, kernel culling
    "BOKEH_RESOURCES": "inline",
    "WARGAMES_STORE_URL": env("WARGAMES_STORE_URL") or f"sqlite:///{STATE / 'wargames-class.sqlite'}",
}
if spawner == "simple":
    c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "homes" / "{username}")

# --- the idle culler: a student's server with no activity for WARGAMES_HUB_CULL seconds is stopped (their game is
# in the store, so the next login brings it back)
cull = int(env("WARGAMES_HUB_CULL") or 1200)
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={cull}", "--cull-every=60"],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]
