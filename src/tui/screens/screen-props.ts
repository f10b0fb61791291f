/** What the app hands every screen: its size, and whether it is the one shown (hidden screens keep their state). */
export interface ScreenProps {
  width: number;
  height: number;
  visible: boolean;
}
