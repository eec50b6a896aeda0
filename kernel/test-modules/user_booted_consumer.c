// SPDX-License-Identifier: GPL-2.0-only
/*
 * A consumer whose supplier's driver comes late.
 *
 * The module creates four platform devices:
 *
 * - "ub-supplier", whose driver is the user_booted_supplier module, which
 *   the tests load from userspace, late;
 * - "ub-early", a supplier that this module's other driver binds at once;
 * - "ub-consumer", bound by this module's driver.  Like the users of an
 *   optional supplier (pinctrl, IOMMUs, power domains) it defers its probe
 *   while the supplier is missing, until driver_deferred_probe_check_state()
 *   says that deferred probing has timed out; then it goes on without it;
 * - "ub-idle", a consumer without a driver, linked to both suppliers by
 *   managed device links: their sync_state() waits for it until fw_devlink
 *   gives up (fw_devlink.sync_state=timeout).
 *
 * outcome says how ub-consumer was bound: "deferred" (not yet), "with
 * supplier" or "without supplier"; deferrals counts its deferred probes.
 * early_synced says whether ub-early's sync_state() was called.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static struct platform_device *ub_supplier, *ub_early, *ub_consumer, *ub_idle;

static char *outcome = "deferred";
module_param(outcome, charp, 0444);
MODULE_PARM_DESC(outcome, "how ub-consumer was bound: deferred, with supplier, without supplier");
static unsigned int deferrals;
module_param(deferrals, uint, 0444);
MODULE_PARM_DESC(deferrals, "how often ub-consumer deferred its probe");
static bool early_synced;
module_param(early_synced, bool, 0444);
MODULE_PARM_DESC(early_synced, "ub-early's sync_state() was called");

static int ub_consumer_probe(struct platform_device *pdev)
{
	int ret;

	if (device_is_bound(&ub_supplier->dev)) {
		outcome = "with supplier";
	} else {
		ret = driver_deferred_probe_check_state(&pdev->dev);
		if (ret != -ETIMEDOUT) {
			deferrals++;
			return ret;
		}
		outcome = "without supplier";
	}
	dev_info(&pdev->dev, "bound %s after %u deferrals\n", outcome, deferrals);
	return 0;
}

static struct platform_driver ub_consumer_driver = {
	.probe = ub_consumer_probe,
	.driver = {
		.name = "ub-consumer",
	},
};

static int ub_early_probe(struct platform_device *pdev)
{
	return 0;
}

static void ub_early_sync_state(struct device *dev)
{
	early_synced = true;
	dev_info(dev, "sync_state\n");
}

static struct platform_driver ub_early_driver = {
	.probe = ub_early_probe,
	.driver = {
		.name = "ub-early",
		.sync_state = ub_early_sync_state,
	},
};

static struct platform_device *ub_register(const char *name)
{
	return platform_device_register_simple(name, PLATFORM_DEVID_NONE, NULL, 0);
}

static int __init ub_consumer_init(void)
{
	int ret;

	ub_supplier = ub_register("ub-supplier");
	if (IS_ERR(ub_supplier))
		return PTR_ERR(ub_supplier);
	ub_early = ub_register("ub-early");
	if (IS_ERR(ub_early)) {
		ret = PTR_ERR(ub_early);
		goto err_supplier;
	}
	ub_idle = ub_register("ub-idle");
	if (IS_ERR(ub_idle)) {
		ret = PTR_ERR(ub_idle);
		goto err_early;
	}
	if (!device_link_add(&ub_idle->dev, &ub_supplier->dev, 0) ||
	    !device_link_add(&ub_idle->dev, &ub_early->dev, 0)) {
		ret = -EINVAL;
		goto err_idle;
	}
	ret = platform_driver_register(&ub_early_driver);
	if (ret)
		goto err_idle;
	ret = platform_driver_register(&ub_consumer_driver);
	if (ret)
		goto err_early_driver;
	ub_consumer = ub_register("ub-consumer");
	if (IS_ERR(ub_consumer)) {
		ret = PTR_ERR(ub_consumer);
		goto err_driver;
	}
	return 0;

err_driver:
	platform_driver_unregister(&ub_consumer_driver);
err_early_driver:
	platform_driver_unregister(&ub_early_driver);
err_idle:
	platform_device_unregister(ub_idle);	/* and its device links */
err_early:
	platform_device_unregister(ub_early);
err_supplier:
	platform_device_unregister(ub_supplier);
	return ret;
}
module_init(ub_consumer_init);

static void __exit ub_consumer_exit(void)
{
	platform_device_unregister(ub_consumer);
	platform_driver_unregister(&ub_consumer_driver);
	platform_driver_unregister(&ub_early_driver);
	platform_device_unregister(ub_idle);
	platform_device_unregister(ub_early);
	platform_device_unregister(ub_supplier);
}
module_exit(ub_consumer_exit);

MODULE_DESCRIPTION("user_booted sample: a consumer whose supplier's driver comes late");
MODULE_LICENSE("GPL");
