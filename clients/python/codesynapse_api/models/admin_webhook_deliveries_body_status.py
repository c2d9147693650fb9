from typing import Literal

AdminWebhookDeliveriesBodyStatus = Literal["delivered", "failed", "pending", "sending"]

ADMIN_WEBHOOK_DELIVERIES_BODY_STATUS_VALUES: set[AdminWebhookDeliveriesBodyStatus] = {
    "delivered",
    "failed",
    "pending",
    "sending",
}


def check_admin_webhook_deliveries_body_status(
    value: str,
) -> AdminWebhookDeliveriesBodyStatus:
    if value in ADMIN_WEBHOOK_DELIVERIES_BODY_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_WEBHOOK_DELIVERIES_BODY_STATUS_VALUES!r}"
    )
