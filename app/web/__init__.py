"""HTTP and websockets, the top floor of the parts: the routes, thin, each handing a request to a
service of ``Parlour`` (routes/), the lean websocket protocol uvicorn runs the sockets on, what a
request that met the database away is answered (outage), who may read the server's own figures
(host_access) and those figures for Prometheus. It may import every floor below it, ``app.parlour``
included; nothing below imports it (``app.main`` mounts it)."""
