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
 *   gives up (fw_devlink.sync_state=timeout).  Writing Y to idle_driver
 *   registers its driver, and it probes once both suppliers are bound;
 * - with early2=Y at load, "ub-early2", a second early supplier of
 *   ub-idle, which writing Y to delete_early2 deletes.
 *
 * outcome says how ub-consumer was bound: "deferred" (not yet), "with
 * supplier" or "without supplier"; deferrals counts its deferred probes.
 * early_synced and early2_synced say whether ub-early's and ub-early2's
 * sync_state() was called.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kstrtox.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static struct platform_device *ub_supplier, *ub_early, *ub_early2, *ub_consumer, *ub_idle;

static char *outcome = "deferred";
module_param(outcome, charp, 0444);
MODULE_PARM_DESC(outcome, "how ub-consumer was bound: deferred, with supplier, without supplier");
static unsigned int deferrals;
module_param(deferrals, uint, 0444);
MODULE_PARM_DESC(deferrals, "how often ub-consumer deferred its probe");
static bool early_synced;
module_param(early_synced, bool, 0444);
MODULE_PARM_DESC(early_synced, "ub-early's sync_state() was called");
static bool early2;
module_param(early2, bool, 0444);
MODULE_PARM_DESC(early2, "create ub-early2 (at load)");
static bool early2_synced;
module_param(early2_synced, bool, 0444);
MODULE_PARM_DESC(early2_synced, "ub-early2's sync_state() was called");

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
	if (dev == &ub_early->dev)
		early_synced = true;
	else
		early2_synced = true;
	dev_info(dev, "sync_state\n");
}

static const struct platform_device_id ub_early_ids[] = {
	{ "ub-early" },
	{ "ub-early2" },
	{ }
};

static struct platform_driver ub_early_driver = {
	.probe = ub_early_probe,
	.id_table = ub_early_ids,
	.driver = {
		.name = "ub-early",
		.sync_state = ub_early_sync_state,
	},
};

static int ub_idle_probe(struct platform_device *pdev)
{
	dev_info(&pdev->dev, "bound\n");
	return 0;
}

static struct platform_driver ub_idle_driver = {
	.probe = ub_idle_probe,
	.driver = {
		.name = "ub-idle",
	},
};

/* Writes of Y act once; the module's parameters are set under its lock. */
static bool idle_driver;

static int idle_driver_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret || !on || idle_driver)
		return ret;
	ret = platform_driver_register(&ub_idle_driver);
	if (!ret)
		idle_driver = true;
	return ret;
}

static const struct kernel_param_ops idle_driver_ops = {
	.set = idle_driver_set,
	.get = param_get_bool,
};
module_param_cb(idle_driver, &idle_driver_ops, &idle_driver, 0644);
MODULE_PARM_DESC(idle_driver, "Y: register ub-idle's driver");

static int delete_early2_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret || !on || !ub_early2)
		return ret;
	platform_device_unregister(ub_early2);	/* and its device links */
	ub_early2 = NULL;
	return 0;
}

static const struct kernel_param_ops delete_early2_ops = {
	.set = delete_early2_set,
};
module_param_cb(delete_early2, &delete_early2_ops, NULL, 0200);
MODULE_PARM_DESC(delete_early2, "Y: delete ub-early2");

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
	if (early2) {
		ub_early2 = ub_register("ub-early2");
		if (IS_ERR(ub_early2)) {
			ret = PTR_ERR(ub_early2);
			ub_early2 = NULL;
			goto err_idle;
		}
		if (!device_link_add(&ub_idle->dev, &ub_early2->dev, 0)) {
			ret = -EINVAL;
			goto err_idle;
		}
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
	if (ub_early2)
		platform_device_unregister(ub_early2);
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
	if (idle_driver)
		platform_driver_unregister(&ub_idle_driver);
	platform_driver_unregister(&ub_early_driver);
	platform_device_unregister(ub_idle);
	if (ub_early2)
		platform_device_unregister(ub_early2);
	platform_device_unregister(ub_early);
	platform_device_unregister(ub_supplier);
}
module_exit(ub_consumer_exit);

MODULE_DESCRIPTION("user_booted sample: a consumer whose supplier's driver comes late");
MODULE_LICENSE("GPL");
