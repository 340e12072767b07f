"""Events as staff see them in the admin answers: the viewer's presenter (for the staff member as a
viewer), with the stored stream URLs staff set (`/media/live/<sample>.m3u8`...), which serve
nothing by themselves, in place of the URLs signed for viewers."""

from collections.abc import Callable

from ...services.events import EventView
from ..http.context import bind_viewer
from .catalogue import event_presenter

STORED_STREAMS = {"HLSStream": "hls_stream", "PanoStream": "pano_stream", "MezzanineVideo": "mezzanine_video"}


async def staff_presenter() -> Callable[[EventView], dict]:
    present = event_presenter(await bind_viewer())

    def staff_view(view: EventView) -> dict:
        body = present(view)
        body["content"].update({wire: getattr(view.event, column) for wire, column in STORED_STREAMS.items()})
        return body

    return staff_view


async def present_for_staff(view: EventView) -> dict:
    return (await staff_presenter())(view)
