"""Jupyter Server settings for Binder (and any single-user Jupyter Server, e.g. JupyterHub).

The explainer runs as its own standalone server (``python -m durak_server``) behind
jupyter-server-proxy at ``<base_url>durak/``; standalone mode refuses code from the browser.
The surrounding Jupyter Server is locked down too: its kernels accept only widget and info
messages (no ``execute_request``) and it has no terminals, so a visitor who opens ``/lab``
cannot run code there either. Launch link::

    https://mybinder.org/v2/gh/<owner>/<repo>/main?urlpath=durak/voila/render/index.ipynb
"""

import os
import sys
from pathlib import Path

c = get_config()  # type: ignore[name-defined]  # noqa: F821 (injected by Jupyter)

REPO = Path(os.environ.get("DURAK_REPO", os.environ.get("REPO_DIR", Path.home()))).resolve()

c.ServerProxy.servers = {
    "durak": {
        "command": [
            sys.executable,
            "-m",
            "durak_server",
            str(REPO / "notebooks"),
            "--no-browser",
            "--port={port}",
            "--Voila.ip=127.0.0.1",
            "--base_url={base_url}durak/",
            "--Voila.port_retries=0",
            f"--Voila.config_file_paths={REPO}",
            # One visitor per container on Binder: a small pool and a small cap.
            "--classroom=1",
            "--max-kernels=6",
            # The proxy's own JupyterLab extension is installed beside Voilà; not on our pages.
            "--VoilaConfiguration.extension_denylist=@jupyterhub/jupyter-server-proxy",
        ],
        # Voilà builds its URLs from --base_url, so the proxy forwards the full path.
        "absolute_url": True,
        "timeout": 120,
        "launcher_entry": {"title": "Durak explainer"},
    }
}
c.ServerApp.default_url = "/durak/voila/render/index.ipynb"
# Voilà's own server extension would serve notebooks inside this (unlocked) server: off.
c.ServerApp.jpserver_extensions = {"voila.server_extension": False}
c.ServerApp.terminals_enabled = False
c.MappingKernelManager.allowed_message_types = [
    "comm_open",
    "comm_close",
    "comm_msg",
    "comm_info_request",
    "kernel_info_request",
    "shutdown_request",
]
