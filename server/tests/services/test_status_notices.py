"""`user-purchase-status` is never lost to a process that dies between its commit and its send:
the settling transaction writes a notice, the sender marks it sent, and the `notices` job sends
what nobody did (server.services.status_notices)."""

from datetime import timedelta

from sqlalchemy import func, select

from server import clock
from server.models import StatusNotice
from server.realtime.announcements import announce_purchase_statuses, resend_unsent_statuses
from server.services import status_notices
from server.services.commerce import settlement
from server.tests.billing import ACTION_DELAY, pending_purchase, purchase_messages, sandbox
from server.tests.mailbox import recording_socket


async def settled_without_sending(database):
    """A purchase settled (committed) by a process that then died: nothing was sent."""
    provider = sandbox(database)
    bought, _ = await pending_purchase(database, provider, "4000000000003220")
    clock.advance(ACTION_DELAY + timedelta(seconds=1))
    announcement = await settlement.settle_purchase(database, provider, bought.id)
    assert announcement is not None and announcement.notice_id is not None
    return bought, announcement


async def test_a_status_decided_by_a_process_that_died_is_sent_by_the_notices_job(database):
    bought, _ = await settled_without_sending(database)
    with recording_socket() as socket:
        await resend_unsent_statuses(database)  # (other tests' leftovers may go out here)
        assert not purchase_messages(socket, bought.id)  # the deciding process may still send it
        clock.advance(timedelta(seconds=status_notices.RESEND_AFTER_SECONDS))
        await resend_unsent_statuses(database)
        await resend_unsent_statuses(database)  # sent once, marked: not again
    assert [m["status"] for m in purchase_messages(socket, bought.id)] == ["success"]


async def test_a_status_its_process_sent_is_not_sent_again(database):
    bought, announcement = await settled_without_sending(database)
    with recording_socket() as socket:
        assert await announce_purchase_statuses([announcement], database=database) == 1
        clock.advance(timedelta(seconds=status_notices.RESEND_AFTER_SECONDS + 1))
        await resend_unsent_statuses(database)
    assert len(purchase_messages(socket, bought.id)) == 1


async def test_a_status_that_could_not_be_sent_stays_for_the_job(database):
    bought, announcement = await settled_without_sending(database)
    with recording_socket() as socket:
        socket.fail = True  # the emit raises (Redis and the socket are gone)
        assert await announce_purchase_statuses([announcement], database=database) == 0
        socket.fail = False
        clock.advance(timedelta(seconds=status_notices.RESEND_AFTER_SECONDS + 1))
        assert await resend_unsent_statuses(database) >= 1
    assert [m["status"] for m in purchase_messages(socket, bought.id)] == ["success"]


async def test_sent_notices_are_deleted_after_a_day(database):
    _, announcement = await settled_without_sending(database)
    await status_notices.mark_sent(database, [announcement.notice_id])
    clock.advance(timedelta(hours=status_notices.KEEP_SENT_HOURS, seconds=1))
    await status_notices.purge_sent(database)
    async with database.session() as db:
        left = await db.scalar(select(func.count()).where(StatusNotice.id == announcement.notice_id))
    assert left == 0
