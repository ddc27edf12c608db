"""`station demo`: an emulated table dealing hands, with or without a screen."""
