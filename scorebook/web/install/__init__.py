"""The installable app: the manifest, the service worker, the icons."""
