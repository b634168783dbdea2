/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What profile's two sides share: the default sampling frequency. */
#ifndef PROFILE_H
#define PROFILE_H

#define PROFILE_DEFAULT_HZ 49 /* off the beat of timers at 50 and 100 Hz */

#endif /* PROFILE_H */
