from typing import Literal

AdminJobChartsResponse200Window = Literal["1h", "24h"]

ADMIN_JOB_CHARTS_RESPONSE_200_WINDOW_VALUES: set[AdminJobChartsResponse200Window] = {
    "1h",
    "24h",
}


def check_admin_job_charts_response_200_window(
    value: str,
) -> AdminJobChartsResponse200Window:
    if value in ADMIN_JOB_CHARTS_RESPONSE_200_WINDOW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_JOB_CHARTS_RESPONSE_200_WINDOW_VALUES!r}"
    )
