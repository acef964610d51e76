"""Kombu's Redis transport, with one change: a worker survives losing Redis.

When the Celery consumer loses the broker it collects its connection, which closes the
transport (``Transport.client`` becomes None), and then closes it. A channel still open
then, with a message delivered and not yet acknowledged, either restores that message
while closing or acknowledges it when its task ends. Either way kombu's Redis channel
builds a new connection pool from the closed transport: ``AttributeError: 'NoneType'
object has no attribute 'hostname'`` (or ``'client'``), not a connection error, so the
worker stopped with "Unrecoverable error" (3 of 10 Redis kills; the same path as
celery/kombu#970 and #582).

Here a channel of a closed transport raises a connection error instead, which kombu and
Celery handle as such (the consumer reconnects), and the restore at close is skipped with
a warning. Nothing is lost: the Redis transport keeps every delivered message in Redis
until it is acknowledged (the ``unacked`` hash) and a consumer puts it back on its queue
once the visibility timeout passes; the standings' beat sweeper refreshes any club whose
marks no task handled meanwhile. Selected by ``CELERY_BROKER_TRANSPORT`` for redis://
brokers (settings).
"""

from __future__ import annotations

import logging

from kombu.transport import redis
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)


def closed(channel: redis.Channel) -> bool:
    """Whether the channel's transport is closed (no client to build a pool from)."""
    return channel.connection is None or channel.connection.client is None


class QoS(redis.QoS):
    def restore_unacked(self, client=None):
        if client is None and closed(self.channel):
            log.warning(
                "broker connection closed: %d unacknowledged message(s) left in Redis, "
                "redelivered after the visibility timeout",
                len(self._delivered),
            )
            self._delivered.clear()
            return None
        return super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS

    def _connparams(self, asynchronous=False):
        if closed(self):
            raise RedisConnectionError("the broker connection is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(redis.Transport):
    Channel = Channel
