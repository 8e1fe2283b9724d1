// Package tagged builds only with the special tag.
package tagged
