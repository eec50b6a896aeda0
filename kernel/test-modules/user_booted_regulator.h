/* SPDX-License-Identifier: GPL-2.0-only */
/* What user_booted_regulator offers the other boot-drivers-* test modules. */
#ifndef _USER_BOOTED_REGULATOR_H
#define _USER_BOOTED_REGULATOR_H

struct device;
struct regulator_dev;

struct regulator_dev *ub_unused_register(struct device *dev, const char *name);

#endif
