// SPDX-License-Identifier: GPL-2.0-only
/*
 * The late driver of the "ub-supplier" device that user_booted_consumer
 * creates, like a PMIC driver that userspace loads late.  sync_state() is
 * called once its consumers have probed, or when fw_devlink gives up
 * waiting for them (fw_devlink.sync_state=timeout); synced says whether
 * it was.  When it binds it registers "ub-late", an unused regulator that
 * is on (user_booted_regulator).
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include "user_booted_regulator.h"

static bool synced;
module_param(synced, bool, 0444);
MODULE_PARM_DESC(synced, "sync_state() was called");

static int ub_supplier_probe(struct platform_device *pdev)
{
	struct regulator_dev *rdev = ub_unused_register(&pdev->dev, "ub-late");

	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	dev_info(&pdev->dev, "bound\n");
	return 0;
}

static void ub_supplier_sync_state(struct device *dev)
{
	synced = true;
	dev_info(dev, "sync_state\n");
}

static struct platform_driver ub_supplier_driver = {
	.probe = ub_supplier_probe,
	.driver = {
		.name = "ub-supplier",
		.sync_state = ub_supplier_sync_state,
	},
};
module_platform_driver(ub_supplier_driver);

MODULE_DESCRIPTION("user_booted sample: the late driver of a supplier");
MODULE_LICENSE("GPL");
