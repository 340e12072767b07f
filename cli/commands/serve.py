"""`touchline serve`: the API, the socket, media and the webapp on one port."""

import typer


def serve(
    host: str = typer.Option(None, help="Interface (default from settings)."),
    port: int = typer.Option(None, help="Port (default PORT or 8080)."),
    reload: bool = typer.Option(False, help="Restart on code changes (development)."),
) -> None:
    import uvicorn

    from server.settings import get_settings

    settings = get_settings()
    uvicorn.run(
        "server.app:asgi",
        factory=True,
        host=host or settings.host,
        port=port or settings.port,
        reload=reload,
        ws_per_message_deflate=False,  # ~3x less memory per socket (TOOLCHAIN-NOTES)
        access_log=settings.environment == "development",
    )
