"""The explainer's web server: Voilà standalone, hardened for classrooms.

``python -m durak_server [voila arguments]`` (what ``script/server`` runs) serves the notebooks
with a kernel cap, a pool of pre-started kernels, kernel shutdown when a page is left, and
websocket filters. Settings live in the ``DurakServer`` section of ``voila.json``
(see :mod:`durak_server.app` and docs/deploy.md).

Nothing in ``durak_core`` or ``tutorial`` imports this package.
"""
