import { defineMessages } from '../../i18n/messages';

/** The words of a project's showcase parts (video, screenshots, tags), English and Simplified Chinese. */
export const messages = defineMessages({
  en: {
    video: {
      title: 'Demo video',
      play: 'Play the video from {{host}}',
      notice: 'Nothing loads from {{host}} until you press play.',
      frame: 'Demo video',
      open: 'Open the video',
    },
    shots: {
      title: 'Screenshots',
      alt: 'Screenshot {{n}} of {{name}}',
      enlarge: 'Open screenshot {{n}} in full size',
    },
    tags: { title: 'Built with' },
  },
  'zh-CN': {
    video: {
      title: '演示视频',
      play: '播放来自 {{host}} 的视频',
      notice: '点击播放前不会从 {{host}} 加载任何内容。',
      frame: '演示视频',
      open: '打开视频',
    },
    shots: {
      title: '截图',
      alt: '{{name}} 的第 {{n}} 张截图',
      enlarge: '查看第 {{n}} 张截图原图',
    },
    tags: { title: '技术栈' },
  },
});
