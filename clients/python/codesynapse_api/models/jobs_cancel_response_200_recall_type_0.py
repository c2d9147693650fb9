from typing import Literal

JobsCancelResponse200RecallType0 = Literal["complete", "partial"]

JOBS_CANCEL_RESPONSE_200_RECALL_TYPE_0_VALUES: set[JobsCancelResponse200RecallType0] = {
    "complete",
    "partial",
}


def check_jobs_cancel_response_200_recall_type_0(
    value: str,
) -> JobsCancelResponse200RecallType0:
    if value in JOBS_CANCEL_RESPONSE_200_RECALL_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_CANCEL_RESPONSE_200_RECALL_TYPE_0_VALUES!r}"
    )
