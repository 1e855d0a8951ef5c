"""The web side of Rummy Scorebook: configuration, extensions, models, forms and views.

The rules engine lives in the separate ``referee`` package, which never imports
anything from here.
"""
