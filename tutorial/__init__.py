"""Teaching layer: widgets, controller, lessons and i18n over durak_core."""
