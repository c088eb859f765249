"""Jupyter Server settings for Binder (and any single-user Jupyter Server, e.g. JupyterHub).

The explainer runs as its own standalone server (``python -m durak_server``) behind
jupyter-server-proxy at ``<base_url>durak/``; standalone mode refuses code from the browser.
The surrounding Jupyter Server is locked down too, so a visitor who opens ``/lab`` cannot run
code there either: it starts no kernel at all (a session or kernel request gets 403), its
contents are read-only (an upload, such as an ``ipykernel_launcher.py`` beside the notebooks
that the next kernel would import first, gets 403), and it has no terminals. Launch link::

    https://mybinder.org/v2/gh/<owner>/<repo>/main?urlpath=durak/voila/render/index.ipynb
"""

import os
import sys
from pathlib import Path

from jupyter_client.kernelspec import NoSuchKernel
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.services.sessions.sessionmanager import SessionManager
from tornado import web

c = get_config()  # type: ignore[name-defined]  # noqa: F821 (injected by Jupyter)


class ReadOnlyContents(AsyncLargeFileManager):
    """The visitor may read the files (JupyterLab's browser), never write, move or delete."""

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise web.HTTPError(403, "This server's files are read-only.")

    save = new = new_untitled = copy = rename = rename_file = delete = delete_file = _refuse
    create_checkpoint = restore_checkpoint = delete_checkpoint = _refuse


class NoKernels(AsyncMappingKernelManager):
    """This server runs no code: the explainer's kernels are durak_server's own."""

    async def start_kernel(self, *args: object, **kwargs: object) -> str:
        raise web.HTTPError(403, "This server starts no kernels.")


class NoSessions(SessionManager):
    """No notebook, console or file gets a kernel here either (the sessions API answers 501:
    "the kernel is not available")."""

    async def create_session(self, *args: object, **kwargs: object) -> dict[str, object]:
        raise NoSuchKernel(str(kwargs.get("kernel_name") or "python3"))

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
c.ServerApp.contents_manager_class = ReadOnlyContents
c.ServerApp.kernel_manager_class = NoKernels
c.ServerApp.session_manager_class = NoSessions
# Belt and braces, should a kernel ever exist here: only widget and info messages.
c.MappingKernelManager.allowed_message_types = [
    "comm_open",
    "comm_close",
    "comm_msg",
    "comm_info_request",
    "kernel_info_request",
    "shutdown_request",
]
