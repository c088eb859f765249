"""Build the explainer as an offline static site: Voici + Pyodide, from PyPI and npm only.

``script/build-static`` runs :mod:`static_site.build` in its own venv (``.venv-static/``, pinned
by ``static_site/requirements.txt``). The steps, one module each:

* :mod:`static_site.pyodide_dist` — Pyodide 0.29.0's interpreter from ``npm pack pyodide``
  (the npm package has no package files, only the interpreter and a lock listing them);
* :mod:`static_site.wheels` — the pure-Python wheels the browser kernel loads, downloaded from
  PyPI (``static_site/browser-wheels.txt``), the project's own wheel, Babel trimmed to the
  site's languages, and metadata-only stubs (``sqlite3``, ``jedi``);
* :mod:`static_site.lock` — a ``pyodide-lock.json`` written afresh for exactly those wheels;
* :mod:`static_site.voici_site` — ``voici build`` of every page notebook with that Pyodide;
* :mod:`static_site.inputs` — the fingerprint of what a build depends on (staleness check);
* :mod:`static_site.serve` — a static file server with the right MIME types (preview, tests);
* :mod:`static_site.measure` — first-visit download and time to the first table, in Chromium.

The versions move together: Voici 0.10.0 (``voici-core``), jupyterlite-core 0.7.6,
jupyterlite-pyodide-kernel 0.7.0, Pyodide 0.29.0; the lab extensions of anywidget and ipywidgets
copied into the site must be the versions of the wheels the browser kernel installs.
Downloads are cached under ``build/cache/``; nothing is fetched at run time.
"""
