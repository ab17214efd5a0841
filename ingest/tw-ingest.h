/* tw-ingest.h: the ingest layer, for the layers above it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-atomic-file.h"
#include "tw-chrome-json-writer.h"
#include "tw-csv-reader.h"
#include "tw-csv-writer.h"
#include "tw-ctf-reader.h"
#include "tw-ctf-writer.h"
#include "tw-reader.h"
#include "tw-ftrace-text-reader.h"
#include "tw-gtop-types.h"
#include "tw-reader-process.h"
#include "tw-reader-registry.h"
#include "tw-shark-format.h"
#include "tw-shark-reader.h"
#include "tw-simulator.h"
#include "tw-monitor.h"
#include "tw-live-kernel.h"
#include "tw-live-gtop.h"
#include "tw-live-lttng.h"
#include "tw-tracecmd-reader.h"
