from typing import Literal

AdminReplayJobsBodyStatusType1 = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

ADMIN_REPLAY_JOBS_BODY_STATUS_TYPE_1_VALUES: set[AdminReplayJobsBodyStatusType1] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_admin_replay_jobs_body_status_type_1(
    value: str,
) -> AdminReplayJobsBodyStatusType1:
    if value in ADMIN_REPLAY_JOBS_BODY_STATUS_TYPE_1_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_REPLAY_JOBS_BODY_STATUS_TYPE_1_VALUES!r}"
    )
