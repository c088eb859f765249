"""``python -m durak_server [voila arguments]``: run :class:`durak_server.app.DurakServer`."""

from durak_server.app import main

main()
