"""A third game shipped with the tests, registered as a plugin without a line changed outside its
package: Pig, a dice race (see :mod:`tests.thirdgame.game`)."""
