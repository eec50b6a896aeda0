// SPDX-License-Identifier: GPL-2.0-only
/*
 * A regulator that is on at boot and that no consumer uses.
 *
 * Its hardware is a flag that starts out on, like a rail the bootloader
 * left on.  The regulator core switches such regulators off in its late
 * cleanup: 30 s after late init, or when userspace has booted if init
 * reports it (user_booted_reported).  The user_booted tests load this
 * module during userspace boot, as a distribution loads its PMIC driver,
 * and watch /sys/class/regulator/regulator.N/state of "ub-unused".
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>

static bool ub_unused_on = true;	/* serialised by the regulator core */
static struct platform_device *ub_unused_pdev;
static struct regulator_dev *ub_unused_rdev;

static int ub_unused_enable(struct regulator_dev *rdev)
{
	ub_unused_on = true;
	return 0;
}

static int ub_unused_disable(struct regulator_dev *rdev)
{
	ub_unused_on = false;
	return 0;
}

static int ub_unused_is_enabled(struct regulator_dev *rdev)
{
	return ub_unused_on;
}

static const struct regulator_ops ub_unused_ops = {
	.enable = ub_unused_enable,
	.disable = ub_unused_disable,
	.is_enabled = ub_unused_is_enabled,
};

static const struct regulator_desc ub_unused_desc = {
	.name = "ub-unused",
	.type = REGULATOR_VOLTAGE,
	.ops = &ub_unused_ops,
	.owner = THIS_MODULE,
};

/* Neither always_on nor boot_on: the late cleanup may switch it off. */
static struct regulator_init_data ub_unused_init_data = {
	.constraints = {
		.name = "ub-unused",
		.valid_ops_mask = REGULATOR_CHANGE_STATUS,
	},
};

static int __init ub_unused_init(void)
{
	struct regulator_config config = { .init_data = &ub_unused_init_data };

	ub_unused_pdev = platform_device_register_simple("ub-unused-regulator",
							 PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(ub_unused_pdev))
		return PTR_ERR(ub_unused_pdev);

	/*
	 * Board code without device tree says its constraints are complete;
	 * otherwise the late cleanup only warns and leaves the regulator on.
	 */
	regulator_has_full_constraints();

	config.dev = &ub_unused_pdev->dev;
	ub_unused_rdev = regulator_register(&ub_unused_pdev->dev, &ub_unused_desc, &config);
	if (IS_ERR(ub_unused_rdev)) {
		platform_device_unregister(ub_unused_pdev);
		return PTR_ERR(ub_unused_rdev);
	}
	return 0;
}
module_init(ub_unused_init);

static void __exit ub_unused_exit(void)
{
	regulator_unregister(ub_unused_rdev);
	platform_device_unregister(ub_unused_pdev);
}
module_exit(ub_unused_exit);

MODULE_DESCRIPTION("user_booted sample: an unused regulator that is on at boot");
MODULE_LICENSE("GPL");
