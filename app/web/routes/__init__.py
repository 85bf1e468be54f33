"""The routes: pages, the JSON API, the sockets; each reads the request, asks a service of
``Parlour``, and shapes its answer."""
