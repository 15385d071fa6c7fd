"""A build with APSP_CHECK_INSTANTIATIONS=minimal (int32 and one tile shape a backend; the Kokkos 5
step of the test command) refuses the other distance types and shapes with "... not compiled into
this build": there (ctest sets APSP_CHECK_INSTANTIATIONS=minimal) a test that meets the refusal
is reported as skipped, as the C++ tests are. A full build skips nothing for it."""
import os

import pytest

MINIMAL = os.environ.get("APSP_CHECK_INSTANTIATIONS") == "minimal"

REFUSAL = "not compiled into this build"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    refused = report.failed and REFUSAL in str(report.longrepr)
    if MINIMAL and report.when in ("setup", "call") and refused:
        report.outcome = "skipped"
        report.longrepr = (str(item.fspath), item.location[1] or 0, "skipped: " + REFUSAL)
